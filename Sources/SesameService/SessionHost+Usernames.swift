import Foundation
import Logging
import SesameCore

/// The service's username methods, performed by ``UsernameFlows``. With usernames off (no
/// directory), everything that needs a username is `operation-not-allowed`.
extension SessionHost {
    /// Sets (or changes) the account's username (see ``UsernameFlows``).
    func setUsername(_ username: String) async throws(AuthError) -> AuthState {
        let usernames = try requireUsernames()
        return try await exclusively { () async throws(AuthError) in try await usernames.setUsername(username, in: self)
        }
    }

    /// Checks a name without claiming it: invalid, reserved, taken by another uid, or
    /// available (the caller's own name is available to it).
    func checkUsername(_ username: String) async throws(AuthError) -> SessionService.UsernameCheck {
        try await requireUsernames().checkUsername(username, in: self)
    }

    func requireUsernames() throws(AuthError) -> UsernameFlows {
        guard let usernames = features.usernames else {
            throw AuthError(.operationNotAllowed, message: "Usernames are off on this machine: use the email address.")
        }
        return usernames
    }

    /// The email to sign in with for an identifier: itself when it contains `@`, else the
    /// email of the username's account (see ``UsernameFlows/email(forUsername:forSignIn:in:)``).
    func emailForIdentifier(_ identifier: String, forSignIn: Bool = false) async throws(AuthError) -> String {
        if identifier.contains("@") { return identifier }
        return try await requireUsernames().email(forUsername: identifier, forSignIn: forSignIn, in: self)
    }
}
