/// The numeric `error.code` of a failure, by class (docs/protocol.md, Error codes and reasons).
public struct LocalAPIErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The line is not JSON.
    public static let parseError = Self(rawValue: -32700)
    /// Not a valid request, or too large.
    public static let invalidRequest = Self(rawValue: -32600)
    public static let methodNotFound = Self(rawValue: -32601)
    public static let invalidParams = Self(rawValue: -32602)
    /// A bug in the daemon; it keeps running.
    public static let internalError = Self(rawValue: -32603)
    /// The person must do something.
    public static let authentication = Self(rawValue: 1000)
    /// The backend could not be reached or refused for now; retry after `data.retryAfterMs`.
    public static let backend = Self(rawValue: 2000)
    /// The peer's role is too low.
    public static let permission = Self(rawValue: 3000)
    /// The operation does not fit the current state.
    public static let state = Self(rawValue: 4000)

    public var description: String { String(rawValue) }
}
