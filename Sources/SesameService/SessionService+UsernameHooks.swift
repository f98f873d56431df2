import Foundation
import Logging
import SesameCore

/// The username steps the other flows call: sign-in by username, claiming a name for a new
/// account, releasing names before a deletion, keeping the details record's email in step.
extension SessionService {
    /// The email to sign in with for an identifier: itself when it contains `@`, else the
    /// email of the username's account.
    ///
    /// For a sign-in every miss (a name that cannot exist, nobody holding it, no details
    /// record, no email in it) is `invalid-login-credentials`, the answer backends give for
    /// an unknown email or a wrong password; for a password reset it is `username-not-found`.
    func emailForIdentifier(_ identifier: String, forSignIn: Bool = false) async throws(AuthError) -> String {
        if identifier.contains("@") { return identifier }
        let directory = try requireDirectory()
        let miss = forSignIn ? AuthError(.invalidLoginCredentials) : AuthError(.usernameNotFound)
        // Reserved names are looked up too: the list may have grown since someone claimed one.
        guard let username = UsernameRules().validate(identifier).username else { throw miss }
        let key = username.key
        let owner = try await callMapped { () async throws(RemoteAuthError) in try await directory.owner(of: key) }
        guard let owner else { throw miss }
        let details = try await callMapped { () async throws(RemoteAuthError) in try await directory.details(of: owner)
        }
        guard let email = details?.email, !email.isEmpty else { throw miss }
        return email
    }

    func prepareUsernameForNewAccount(_ username: String?) async throws(AuthError) -> UsernameClaim? {
        guard let username else { return nil }
        let directory = try requireDirectory()
        let valid = try validatedUsername(username)
        let key = valid.key
        let owner = try await callMapped { () async throws(RemoteAuthError) in try await directory.owner(of: key) }
        if let owner, owner != machine.session?.uid { throw AuthError(.usernameTaken) }
        return UsernameClaim(username: valid.name, key: valid.key)
    }

    /// Claims the name for `session` (a guest before linking, or a sign-up not adopted yet).
    /// - Throws: `username-taken` when another uid holds it; a backend error.
    func claimUsername(_ claim: UsernameClaim, for session: Session) async throws(AuthError) {
        let directory = try requireDirectory()
        let step = UsernameStep(kind: .writeDetails, uid: session.uid, key: claim.key, username: claim.username)
        let durable = machine.session?.uid == session.uid
        if durable { await addUsernameSteps([step]) }
        let uid = session.uid
        let key = claim.key
        let won: Bool
        do throws(AuthError) {
            won = try await withToken(of: session) { token async throws(RemoteAuthError) in
                try await directory.claim(key, for: uid, idToken: token)
            }
        } catch {
            if durable && error.category != .backend { await removeUsernameSteps([step]) }
            // A transport failure may have landed: the step finds out (and releases it when
            // the account was never created).
            if durable && error.category == .backend { scheduleUsernameRetry() }
            throw error
        }
        guard won else {
            if durable { await removeUsernameSteps([step]) }
            throw AuthError(.usernameTaken)
        }
    }

    /// The account could not be created: gives the claimed name back.
    func releaseClaim(_ claim: UsernameClaim, of session: Session) async {
        let step = UsernameStep(kind: .writeDetails, uid: session.uid, key: claim.key, username: claim.username)
        let release = UsernameStep(kind: .release, uid: session.uid, key: claim.key, username: claim.username)
        let durable = machine.session?.uid == session.uid
        if durable {
            await addUsernameSteps([release])
            await removeUsernameSteps([step])
        }
        do throws(AuthError) {
            try await releaseKey(claim.key, of: session, unlessCurrent: false)
            if durable { await removeUsernameSteps([release]) }
        } catch {
            logger.warning(
                "Could not give back a claimed username yet", metadata: ["error": "\(error.reason.rawValue)"])
            if durable { scheduleUsernameRetry() }
        }
    }

    /// Writes the details record of a name just claimed for a new account; retried later when
    /// the directory cannot be reached.
    func finishUsernameClaim(_ claim: UsernameClaim, for session: Session) async {
        guard let directory else { return }
        let step = UsernameStep(kind: .writeDetails, uid: session.uid, key: claim.key, username: claim.username)
        let details = UsernameDetails(username: claim.username, email: session.user.email)
        let uid = session.uid
        do throws(AuthError) {
            try await withToken(of: session) { token async throws(RemoteAuthError) in
                try await directory.setDetails(details, of: uid, idToken: token)
            }
            await removeUsernameSteps([step])
        } catch {
            logger.warning(
                "Could not write the username details yet; will retry", metadata: ["error": "\(error.reason.rawValue)"])
            await addUsernameSteps([step])
            scheduleUsernameRetry()
        }
    }

    /// Gives back every name the account holds before it is deleted (best effort: after the
    /// deletion nothing can be written in its name).
    /// Releases the account's names before it is deleted.
    /// - Throws: a backend error when the directory cannot be reached: the account is then not
    ///   deleted, so a name is never left held by an account that no longer exists.
    func releaseUsernameBeforeDeletion(of session: Session) async throws(AuthError) {
        guard let directory else { return }
        let uid = session.uid
        var keys: [String] = []
        if let username = session.user.username { keys.append(UsernameKey.derive(from: username)) }
        if let details = try? await callMapped({ () async throws(RemoteAuthError) in
            try await directory.details(of: uid)
        }) {
            keys.append(UsernameKey.derive(from: details.username))
        }
        let steps = machine.persisted.pendingUsernameSteps.filter { $0.uid == uid }
        keys += steps.map(\.key)
        var seen = Set<String>()
        for key in keys where seen.insert(key).inserted {
            do throws(AuthError) {
                try await releaseKey(key, of: session, unlessCurrent: false)
            } catch {
                logger.warning(
                    "Could not release a username before deleting the account",
                    metadata: ["error": "\(error.reason.rawValue)"])
                if error.category == .backend { throw error }
            }
        }
        if !steps.isEmpty { await removeUsernameSteps(steps) }
        // The port cannot delete the details record; at least stop it publishing the email.
        if let username = session.user.username {
            let scrubbed = UsernameDetails(username: username, email: nil)
            do throws(AuthError) {
                try await withToken(of: session) { token async throws(RemoteAuthError) in
                    try await directory.setDetails(scrubbed, of: uid, idToken: token)
                }
            } catch {
                logger.warning(
                    "Could not remove the email from the username record before deleting the account",
                    metadata: ["error": "\(error.reason.rawValue)"])
            }
        }
    }

    /// Keeps `/users/details/{uid}/email` in step with the account's email.
    func syncUsernameEmail(of session: Session) async {
        guard let directory, let username = session.user.username else { return }
        let details = UsernameDetails(username: username, email: session.user.email)
        let uid = session.uid
        do throws(AuthError) {
            try await withToken(of: session) { token async throws(RemoteAuthError) in
                try await directory.setDetails(details, of: uid, idToken: token)
            }
        } catch {
            logger.warning(
                "Could not update the username's email yet; will retry", metadata: ["error": "\(error.reason.rawValue)"]
            )
            let step = UsernameStep(
                kind: .writeDetails, uid: uid, key: UsernameKey.derive(from: username), username: username)
            await addUsernameSteps([step])
            scheduleUsernameRetry()
        }
    }

    /// Adds the username (from the directory) to a profile the backend returned.
    func completeProfile(_ user: User, previous: User?) async -> User {
        var user = user
        let fallback = user.username ?? previous?.username
        guard let directory, !user.isAnonymous else {
            user.username = fallback
            return user
        }
        let uid = user.uid
        do throws(RemoteAuthError) {
            let details = try await call { () async throws(RemoteAuthError) in try await directory.details(of: uid) }
            user.username = details?.username
            if let details, let email = user.email, details.email != email {
                // The email changed elsewhere (or a sync was lost): bring the record in step,
                // through a durable step the maintenance loop runs once this session is current.
                logger.info("The username record's email is stale; updating it", metadata: ["account.uid": "\(uid)"])
                let step = UsernameStep(
                    kind: .writeDetails, uid: uid, key: UsernameKey.derive(from: details.username),
                    username: details.username)
                await addUsernameSteps([step])
                plan.handle(.usernameStepsNeeded)
                wakeMaintenance()
            }
        } catch {
            user.username = fallback
        }
        return user
    }
}
