import Foundation
import Logging
import SesameCore

/// The address change's steps other features take: the pending address in a profile, the
/// confirmation followed, the reload while one is pending.
extension SessionHost {
    /// The profile a lookup returned, with the remembered pending address where the backend
    /// reports none and it is not the email yet.
    func withPendingEmail(_ user: User) -> User {
        guard user.pendingEmail == nil, let remembered = persisted.pendingEmails[user.uid],
            user.email?.lowercased() != remembered.lowercased()
        else { return user }
        var user = user
        user.pendingEmail = remembered
        return user
    }

    /// Once the current account's email is the remembered pending address (the owner
    /// confirmed it): the username record follows, then the address is forgotten.
    /// - Parameter checkingSession: whether the held session may predate the confirmation (a
    ///   reload, not a sign-in's new tokens). It is checked with the backend first, as Firebase
    ///   ends an account's sessions at a confirmed change: ended, it is `credentials-changed`,
    ///   and the address stays remembered to name it.
    func followConfirmedEmailChange(checkingSession: Bool = false) async {
        guard let session = self.session, let remembered = persisted.pendingEmails[session.uid],
            session.user.email?.lowercased() == remembered.lowercased()
        else { return }
        if checkingSession {
            await checkSessionAtConfirmedChange(of: session.uid)
            guard self.session?.uid == session.uid else { return }
        }
        logger.info("The address change was confirmed", metadata: ["session.uid": "\(session.uid)"])
        var job = EmailChange(
            newEmail: remembered, hasUsername: features.usernames != nil && session.user.username != nil
        )
        let first = job.confirm()
        var flow = EmailChangeFlow(uid: session.uid)
        _ = await job.drive(from: first) { (action) async throws(AuthError) in
            try await flow.perform(action, in: self)
        }
    }

    /// A refresh that ends the session as `credentials-changed` when the backend refuses it.
    private func checkSessionAtConfirmedChange(of uid: String) async {
        do throws(RemoteAuthError) {
            _ = try await refreshCurrentSession(knownCause: .credentialsChanged, reloadsPendingChange: false)
        } catch {
            if self.session?.uid != uid {
                logger.info(
                    "The confirmed address change ended the session; sign in with the new address",
                    metadata: ["session.uid": "\(uid)"])
            }
        }
    }

    /// After a token refresh: while an address change is pending, read the profile again (in
    /// a flow of its own, a child task of `run()`) so a confirmation shows within one refresh.
    func reloadIfEmailChangePending(_ uid: String) {
        guard persisted.pendingEmails[uid] != nil else { return }
        spawn { host in await host.reloadExclusively() }
    }

    /// ``reloadProfile()`` as a flow of its own; a failure changes nothing.
    func reloadExclusively() async {
        _ = try? await exclusively { () async throws(AuthError) in try await reloadProfile() }
    }
}

/// Address changes, verified before they are made (PROTOCOL.md, "Account security"): the
/// steps are ``EmailChange``'s. The pending address is remembered per uid in the keyring
/// (`pendingEmails`) because Firebase does not report it, shown as `User.pendingEmail`, and
/// forgotten once a lookup shows it as the account's email; then the username record follows.
extension SessionHost {
    /// Starts an address change, verified before it is made; returns the pending address.
    func changeEmail(newEmail: String) async throws(AuthError) -> String {
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
