import Foundation
import Logging
import SesameCore

/// The username steps the other flows call: sign-in by username, claiming a name for a new
/// account, releasing names before a deletion, keeping the details record's email in step.
extension UsernameFlows {
    /// The email of the account that holds the username `identifier`.
    ///
    /// For a sign-in every miss (a name that cannot exist, nobody holding it, no details
    /// record, no email in it) is `invalid-login-credentials`, the answer backends give for
    /// an unknown email or a wrong password; for a password reset it is `username-not-found`.
    func email(
        forUsername identifier: String, forSignIn: Bool, in host: isolated some SessionHost
    ) async throws(AuthError) -> String {
        let miss = forSignIn ? AuthError(.invalidLoginCredentials) : AuthError(.usernameNotFound)
        // Reserved names are looked up too: the list may have grown since someone claimed one.
        guard let username = UsernameRules().validate(identifier).username else { throw miss }
        let key = username.key
        let directory = self.directory
        let owner = try await host.callMapped { () async throws(RemoteAuthError) in
            try await directory.owner(of: key)
        }
        guard let owner else { throw miss }
        let details = try await host.callMapped { () async throws(RemoteAuthError) in
            try await directory.details(of: owner)
        }
        guard let email = details?.email, !email.isEmpty else { throw miss }
        return email
    }

    /// Validates a name for a new account and checks nobody else holds it.
    func prepareClaim(_ username: String, in host: isolated some SessionHost) async throws(AuthError) -> Claim {
        let valid = try validated(username)
        let key = valid.key
        let directory = self.directory
        let owner = try await host.callMapped { () async throws(RemoteAuthError) in
            try await directory.owner(of: key)
        }
        if let owner, owner != host.session?.uid { throw AuthError(.usernameTaken) }
        return Claim(username: valid.name, key: valid.key)
    }

    /// Claims the name for `session` (a guest before linking, or a sign-up not adopted yet).
    /// - Throws: `username-taken` when another uid holds it; a backend error.
    func claim(_ claim: Claim, for session: Session, in host: isolated some SessionHost) async throws(AuthError) {
        let step = UsernameStep(kind: .writeDetails, uid: session.uid, key: claim.key, username: claim.username)
        let durable = host.session?.uid == session.uid
        if durable { await addSteps([step], in: host) }
        let (uid, key, directory) = (session.uid, claim.key, self.directory)
        let won: Bool
        do throws(AuthError) {
            won = try await withToken(of: session, in: host) { token async throws(RemoteAuthError) in
                try await directory.claim(key, for: uid, idToken: token)
            }
        } catch {
            if durable && error.category != .backend { await removeSteps([step], in: host) }
            // A transport failure may have landed: the step finds out (and releases it when
            // the account was never created).
            if durable && error.category == .backend { scheduleRetry(in: host) }
            throw error
        }
        guard won else {
            if durable { await removeSteps([step], in: host) }
            throw AuthError(.usernameTaken)
        }
    }

    /// The account could not be created: gives the claimed name back.
    func releaseClaim(_ claim: Claim, of session: Session, in host: isolated some SessionHost) async {
        let step = UsernameStep(kind: .writeDetails, uid: session.uid, key: claim.key, username: claim.username)
        let release = UsernameStep(kind: .release, uid: session.uid, key: claim.key, username: claim.username)
        let durable = host.session?.uid == session.uid
        if durable {
            await addSteps([release], in: host)
            await removeSteps([step], in: host)
        }
        do throws(AuthError) {
            try await releaseKey(claim.key, of: session, unlessCurrent: false, in: host)
            if durable { await removeSteps([release], in: host) }
        } catch {
            host.logger.warning(
                "Could not give back a claimed username yet", metadata: ["error": "\(error.reason.rawValue)"])
            if durable { scheduleRetry(in: host) }
        }
    }

    /// Writes the details record of a name just claimed for a new account; retried later when
    /// the directory cannot be reached.
    func finishClaim(_ claim: Claim, for session: Session, in host: isolated some SessionHost) async {
        let step = UsernameStep(kind: .writeDetails, uid: session.uid, key: claim.key, username: claim.username)
        let details = UsernameDetails(username: claim.username, email: session.user.email)
        let (uid, directory) = (session.uid, self.directory)
        do throws(AuthError) {
            try await withToken(of: session, in: host) { token async throws(RemoteAuthError) in
                try await directory.setDetails(details, of: uid, idToken: token)
            }
            await removeSteps([step], in: host)
        } catch {
            host.logger.warning(
                "Could not write the username details yet; will retry", metadata: ["error": "\(error.reason.rawValue)"])
            await addSteps([step], in: host)
            scheduleRetry(in: host)
        }
    }

    /// Releases the account's names before it is deleted (after the deletion nothing can be
    /// written in its name).
    /// - Throws: a backend error when the directory cannot be reached: the account is then not
    ///   deleted, so a name is never left held by an account that no longer exists.
    func releaseBeforeDeletion(of session: Session, in host: isolated some SessionHost) async throws(AuthError) {
        let (uid, directory) = (session.uid, self.directory)
        var keys: [String] = []
        if let username = session.user.username { keys.append(UsernameKey.derive(from: username)) }
        if let details = try? await host.callMapped({ () async throws(RemoteAuthError) in
            try await directory.details(of: uid)
        }) {
            keys.append(UsernameKey.derive(from: details.username))
        }
        let steps = host.persisted.pendingUsernameSteps.filter { $0.uid == uid }
        keys += steps.map(\.key)
        var seen = Set<String>()
        for key in keys where seen.insert(key).inserted {
            do throws(AuthError) {
                try await releaseKey(key, of: session, unlessCurrent: false, in: host)
            } catch {
                host.logger.warning(
                    "Could not release a username before deleting the account",
                    metadata: ["error": "\(error.reason.rawValue)"])
                if error.category == .backend { throw error }
            }
        }
        if !steps.isEmpty { await removeSteps(steps, in: host) }
        // The port cannot delete the details record; at least stop it publishing the email.
        if let username = session.user.username {
            let scrubbed = UsernameDetails(username: username, email: nil)
            do throws(AuthError) {
                try await withToken(of: session, in: host) { token async throws(RemoteAuthError) in
                    try await directory.setDetails(scrubbed, of: uid, idToken: token)
                }
            } catch {
                host.logger.warning(
                    "Could not remove the email from the username record before deleting the account",
                    metadata: ["error": "\(error.reason.rawValue)"])
            }
        }
    }

    /// Keeps `/users/details/{uid}/email` in step with the account's email.
    func syncEmail(of session: Session, in host: isolated some SessionHost) async {
        guard let username = session.user.username else { return }
        let details = UsernameDetails(username: username, email: session.user.email)
        let (uid, directory) = (session.uid, self.directory)
        do throws(AuthError) {
            try await withToken(of: session, in: host) { token async throws(RemoteAuthError) in
                try await directory.setDetails(details, of: uid, idToken: token)
            }
        } catch {
            host.logger.warning(
                "Could not update the username's email yet; will retry", metadata: ["error": "\(error.reason.rawValue)"]
            )
            let step = UsernameStep(
                kind: .writeDetails, uid: uid, key: UsernameKey.derive(from: username), username: username)
            await addSteps([step], in: host)
            scheduleRetry(in: host)
        }
    }

    /// Adds the username (from the directory) to a profile the backend returned.
    func completeProfile(_ user: User, previous: User?, in host: isolated some SessionHost) async -> User {
        var user = user
        let fallback = user.username ?? previous?.username
        guard !user.isAnonymous else {
            user.username = fallback
            return user
        }
        let (uid, directory) = (user.uid, self.directory)
        do throws(RemoteAuthError) {
            let details = try await host.call { () async throws(RemoteAuthError) in
                try await directory.details(of: uid)
            }
            user.username = details?.username
            if let details, let email = user.email, details.email != email {
                // The email changed elsewhere (or a sync was lost): bring the record in step,
                // through a durable step the maintenance loop runs once this session is current.
                host.logger.info(
                    "The username record's email is stale; updating it", metadata: ["account.uid": "\(uid)"])
                let step = UsernameStep(
                    kind: .writeDetails, uid: uid, key: UsernameKey.derive(from: details.username),
                    username: details.username)
                await addSteps([step], in: host)
                host.plan(.usernameStepsNeeded)
            }
        } catch {
            user.username = fallback
        }
        return user
    }
}
