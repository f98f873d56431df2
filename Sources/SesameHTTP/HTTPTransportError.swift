/// Why a request got no complete response. Descriptions are secret-free (no URL, no header).
public enum HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The TCP connection was not made within the connect timeout.
    case connectTimedOut
    /// The connection could not be made (refused, unreachable); the errno when known.
    case connectFailed(errno: Int32?)
    /// The whole call took longer than the request timeout.
    case requestTimedOut
    /// The server closed the connection before the response was complete.
    case connectionClosed
    /// The calling task was cancelled.
    case cancelled
    /// The response body was larger than `limit` bytes.
    case responseTooLarge(limit: Int)
    /// Anything else; `kind` names the error type, never its content.
    case failed(kind: String)

    public var description: String {
        switch self {
        case .connectTimedOut: "connect timed out"
        case .connectFailed(let errno?): "connection failed (errno \(errno))"
        case .connectFailed(nil): "connect failed"
        case .requestTimedOut: "request timed out"
        case .connectionClosed: "connection closed by the server"
        case .cancelled: "request cancelled"
        case .responseTooLarge(let limit): "response body larger than \(limit) bytes"
        case .failed(let kind): "request failed (\(kind))"
        }
    }
}
