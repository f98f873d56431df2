/// The numbers of docs/protocol.md that both sides rely on.
public enum ProtocolLimits {
    /// The protocol version `hello` reports.
    public static let version = 1
    /// Longest request line the daemon reads, not counting the `\n`.
    public static let maximumRequestLineBytes = 65_536
    /// Longest line the daemon sends.
    public static let maximumResponseLineBytes = 1 << 20
    /// Requests one connection may have in flight before the daemon stops reading.
    public static let maximumRequestsInFlight = 64
    /// Subscriptions one connection may hold; a `subscribe` beyond is `-32602`.
    public static let maximumSubscriptionsPerConnection = 64
    /// Unread notification bytes after which a subscriber is disconnected.
    public static let maximumUnreadNotificationBytes = 1 << 20
}
