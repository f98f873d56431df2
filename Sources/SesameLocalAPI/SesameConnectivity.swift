/// Whether the daemon's last backend call succeeded (`online`) or failed for a transport
/// reason, a 5xx or a 429 (`offline`). An open set, like ``SesameStatus``.
public struct SesameConnectivity: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let online = Self(rawValue: "online")
    public static let offline = Self(rawValue: "offline")

    public var description: String { rawValue }
}
