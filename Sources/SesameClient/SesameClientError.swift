/// Every error ``SesameClient`` throws.
///
/// Daemon errors keep the protocol's `code`, `reason`, `message` and `data`, so callers branch
/// on ``reason`` (PROTOCOL.md, Error codes and reasons). The other cases describe the
/// connection.
public enum SesameClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The daemon answered with an error.
    case daemon(DaemonError)
    /// Nothing listens on the socket (or it cannot be opened).
    case daemonUnreachable(socketPath: String, detail: String)
    /// The socket exists but this process may not open it (EACCES): it is not in the group
    /// the socket belongs to. `group` names that group when its members may connect.
    case permissionDenied(socketPath: String, group: String?)
    /// The daemon accepted the connection (or the socket queued it) but did not answer
    /// within the client's `requestTimeout`: it is hung, stopped or still starting.
    case noAnswer(socketPath: String, timeout: Duration)
    /// The connection closed before the answer arrived.
    case connectionClosed
    /// The daemon sent something that is not protocol; the client drops the connection and
    /// reconnects.
    case protocolError(String)

    /// An error the daemon sent.
    public struct DaemonError: Sendable, Hashable {
        /// The numeric class: -32700…-32603 (JSON-RPC), 1000 authentication, 2000 backend,
        /// 3000 permission, 4000 state.
        public var code: Int
        /// The stable reason to branch on, e.g. `email-already-in-use`.
        public var reason: String
        /// A sentence for people that says what to do next.
        public var message: String
        /// The error's `data` object as compact JSON (always holds `reason`).
        public var dataJSON: String
        /// `data.email`, for conflicts.
        public var email: String?
        /// `data.providerId`, for conflicts.
        public var providerId: String?
        /// `data.providers`: the sign-in methods an existing account has.
        public var providers: [String]?
        /// `data.retryAfterMs`, for backend errors (code 2000).
        public var retryAfterMs: Int?
        /// `data.requiredRole`, for `permission-denied`.
        public var requiredRole: String?
        /// The open challenge of `second-factor-required` (`data.challengeId`, `factors`,
        /// `expiresAt`): pass its id to ``SesameClient/completeSecondFactor(challengeId:code:factorId:)``.
        public var challenge: SesameSecondFactorChallenge?

        public init(
            code: Int, reason: String, message: String, dataJSON: String = "{}", email: String? = nil,
            providerId: String? = nil, providers: [String]? = nil, retryAfterMs: Int? = nil,
            requiredRole: String? = nil, challenge: SesameSecondFactorChallenge? = nil
        ) {
            self.challenge = challenge
            self.code = code
            self.reason = reason
            self.message = message
            self.dataJSON = dataJSON
            self.email = email
            self.providerId = providerId
            self.providers = providers
            self.retryAfterMs = retryAfterMs
            self.requiredRole = requiredRole
        }
    }

    /// The daemon error, when this is one.
    public var daemonError: DaemonError? {
        if case .daemon(let error) = self { return error }
        return nil
    }

    /// The protocol reason for daemon errors; nil otherwise.
    public var reason: String? { daemonError?.reason }

    /// The protocol code for daemon errors; nil otherwise.
    public var code: Int? { daemonError?.code }

    public var description: String {
        switch self {
        case .daemon(let error): "\(error.message) (\(error.reason), \(error.code))"
        case .daemonUnreachable(let path, let detail): "sesamed is not reachable at \(path): \(detail)"
        case .permissionDenied(let path, let group):
            "permission denied on \(path): "
                + (group.map { "join group \($0) (or ask an administrator)" } ?? "ask an administrator for access")
        case .noAnswer(let path, let timeout):
            "sesamed at \(path) did not answer within \(Self.seconds(timeout))"
        case .connectionClosed: "the connection to sesamed closed before it answered"
        case .protocolError(let detail): "sesamed sent a line that is not protocol: \(detail)"
        }
    }

    /// "5 s", "0.25 s": a duration for messages.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        if attoseconds == 0 { return "\(whole) s" }
        let value = Double(whole) + Double(attoseconds) / 1e18
        return "\((value * 1000).rounded() / 1000) s"
    }
}
