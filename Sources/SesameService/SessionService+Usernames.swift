import Foundation
import Logging
import SesameCore

/// Username steps the flows call. With usernames off (no directory), everything that needs a
/// username is `operation-not-allowed`.
extension SessionService {
    /// A validated name to claim for a new account.
    struct UsernameClaim: Sendable {
        var username: String
        var key: String
    }

    /// The email to sign in with for an identifier: itself when it contains `@`, else the
    /// email of the username's account.
    func emailForIdentifier(_ identifier: String, forSignIn: Bool = false) async throws(AuthError) -> String {
        if identifier.contains("@") { return identifier }
        guard directory != nil else {
            throw AuthError(.operationNotAllowed, message: "Usernames are off on this machine: use the email address.")
        }
        throw AuthError(.operationNotAllowed, message: "Usernames are not available yet: use the email address.")
    }

    func prepareUsernameForNewAccount(_ username: String?) async throws(AuthError) -> UsernameClaim? {
        guard username != nil else { return nil }
        guard directory != nil else {
            throw AuthError(.operationNotAllowed, message: "Usernames are off on this machine.")
        }
        throw AuthError(.operationNotAllowed, message: "Usernames are not available yet.")
    }

    func claimUsername(_ claim: UsernameClaim, for session: Session) async throws(AuthError) {}

    func releaseClaim(_ claim: UsernameClaim, of session: Session) async {}

    func finishUsernameClaim(_ claim: UsernameClaim, for session: Session) async {}

    func releaseUsernameBeforeDeletion(of session: Session) async {}

    func syncUsernameEmail(of session: Session) async {}

    /// Adds the username (from the directory) to a profile the backend returned.
    func completeProfile(_ user: User, previous: User?) async -> User {
        var user = user
        if user.username == nil { user.username = previous?.username }
        return user
    }
}

extension SessionService {
    /// Whether a name could be taken by the caller.
    public struct UsernameCheck: Sendable, Hashable {
        public var available: Bool
        /// Why not: `invalid-username`, `username-taken` or `username-reserved`.
        public var reason: AuthError.Reason?
    }

    /// Sets (or changes) the account's username.
    public func setUsername(_ username: String) async throws(AuthError) -> AuthState {
        guard directory != nil else {
            throw AuthError(.operationNotAllowed, message: "Usernames are off on this machine.")
        }
        throw AuthError(.operationNotAllowed, message: "Usernames are not available yet.")
    }

    /// Checks a name without claiming it.
    public func checkUsername(_ username: String) async throws(AuthError) -> UsernameCheck {
        guard directory != nil else {
            throw AuthError(.operationNotAllowed, message: "Usernames are off on this machine.")
        }
        throw AuthError(.operationNotAllowed, message: "Usernames are not available yet.")
    }
}
