import Foundation
import SesameCore

extension SessionService {
    /// Whether a name could be taken by the caller.
    public struct UsernameCheck: Sendable, Hashable {
        public var available: Bool
        /// Why not: `invalid-username`, `username-taken` or `username-reserved`.
        public var reason: AuthError.Reason?
    }

    /// The usernames feature (``Usernames``).
    public nonisolated var usernames: Usernames { Usernames(host: self) }
}

/// Usernames: setting and checking a name (``UsernameFlows`` holds the directory and the
/// rules). With usernames off, everything that needs one is `operation-not-allowed`.
public struct Usernames: Sendable {
    let host: SessionService

    /// Sets (or changes) the account's username (see ``UsernameFlows``).
    public func setUsername(_ username: String) async throws(AuthError) -> AuthState {
        try await host.setUsername(username)
    }

    /// Checks a name without claiming it: invalid, reserved, taken by another uid, or
    /// available (the caller's own name is available to it).
    public func checkUsername(_ username: String) async throws(AuthError) -> SessionService.UsernameCheck {
        try await host.checkUsername(username)
    }
}
