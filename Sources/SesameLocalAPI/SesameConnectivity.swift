/// Whether the daemon's last backend call succeeded (`online`), failed for a transport reason or
/// a 5xx (`offline`), or was refused for a rate limit (`rate-limited`, with
/// ``SesameState/rateLimit``). An open set, like ``SesameStatus``.
public struct SesameConnectivity: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let online = Self(rawValue: "online")
    public static let offline = Self(rawValue: "offline")
    public static let rateLimited = Self(rawValue: "rate-limited")

    public var description: String { rawValue }
}
