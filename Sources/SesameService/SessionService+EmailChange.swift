import Foundation
import Logging
import SesameCore

/// Address changes, verified before they are made (PROTOCOL.md, "Account security"): the
/// steps are ``EmailChange``'s. The pending address is remembered per uid in the keyring
/// (`pendingEmails`) because Firebase does not report it, shown as `User.pendingEmail`, and
/// forgotten once a lookup shows it as the account's email; then the username record follows.
extension SessionService {
    /// Starts an address change, verified before it is made; returns the pending address.
    public func changeEmail(newEmail: String) async throws(AuthError) -> String {
        try await exclusively { () async throws(AuthError) in
            let session = try requireAccount()
            let address = newEmail.trimmingCharacters(in: .whitespaces)
            guard address.contains("@"), !address.hasPrefix("@"), !address.hasSuffix("@") else {
                throw AuthError(.invalidEmail)
            }
            if session.user.email?.lowercased() == address.lowercased() {
                throw AuthError(
                    .emailAlreadyInUse, message: "That is already this account's address.", email: address)
            }
            var job = EmailChange(newEmail: address, hasUsername: session.user.username != nil)
            let first = job.start()
            var flow = EmailChangeFlow(uid: session.uid)
            return try await job.drive(from: first) { (action) async throws(AuthError) in
                try await flow.perform(action, in: self)
            }.get()
        }
    }
}
