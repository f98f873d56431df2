import Foundation
import Logging
import SesameCore

/// Username steps the flows call. With usernames off (no directory), everything that needs a
/// username is `operation-not-allowed`.
///
/// Crash safety: every change that claims a key first records durable steps in the keyring
/// (`pendingUsernameSteps`): `.writeDetails` for a key being claimed (its details record must
/// point at it, or, when the claim never happened, the step is dropped) and `.release` for a
/// key to give up. The maintenance loop finishes them on start and retries them. A `.release`
/// step never releases the key the uid's details record points at, so a rename whose claim
/// never landed cannot release the old (still current) name.
extension SessionService {
    /// A validated name to claim for a new account.
    struct UsernameClaim: Sendable {
        var username: String
        var key: String
    }

    /// Seconds between retries of pending username steps.
    static let usernameRetryDelay: TimeInterval = 5

    var usernameRules: UsernameRules { UsernameRules(reserved: configuration.reservedUsernames) }

    func requireDirectory() throws(AuthError) -> any UsernameDirectory {
        guard let directory else {
            throw AuthError(.operationNotAllowed, message: "Usernames are off on this machine: use the email address.")
        }
        return directory
    }

    /// The valid username, or the rejection as an error.
    func validatedUsername(_ candidate: String) throws(AuthError) -> Username {
        switch usernameRules.validate(candidate) {
        case .valid(let username): return username
        case .rejected(let rejection): throw rejection.authError
        }
    }

    /// Calls the directory with an ID token of `session`: the fresh-token path when it is the
    /// current session, else its own token (a sign-up not adopted yet).
    func withToken<T: Sendable>(
        of session: Session, _ body: @Sendable (IDToken) async throws(RemoteAuthError) -> T
    ) async throws(AuthError) -> T {
        if machine.session?.uid == session.uid { return try await withFreshToken(body) }
        let token = session.idToken
        return try await callMapped { () async throws(RemoteAuthError) in try await body(token) }
    }

    // MARK: - Durable steps

    func addUsernameSteps(_ steps: [UsernameStep]) async {
        var all = machine.persisted.pendingUsernameSteps
        for step in steps where !all.contains(step) { all.append(step) }
        await apply(.usernameStepsChanged(all))
    }

    func removeUsernameSteps(_ steps: [UsernameStep]) async {
        await apply(.usernameStepsChanged(machine.persisted.pendingUsernameSteps.filter { !steps.contains($0) }))
    }

    func scheduleUsernameRetry() {
        let delay = Self.usernameRetryDelay * Double.random(in: 1...1.5)
        usernameRetryAt = now().addingTimeInterval(delay)
        let sleeper = self.sleeper
        Task {
            try? await sleeper.sleep(seconds: delay)
            await self.wakeMaintenance()
        }
    }

    /// The maintenance loop's hook: finishes the pending steps when they are due.
    func finishUsernameStepsIfDue() async {
        guard directory != nil, !machine.persisted.pendingUsernameSteps.isEmpty, machine.status != .starting else {
            return
        }
        if let retryAt = usernameRetryAt, retryAt > now() { return }
        usernameRetryAt = nil
        _ = try? await exclusively { () async throws(AuthError) in await finishUsernameSteps() }
    }

    /// Works through `pendingUsernameSteps` in order. Call only inside `exclusively`.
    func finishUsernameSteps() async {
        guard let directory else { return }
        for step in machine.persisted.pendingUsernameSteps {
            guard machine.persisted.pendingUsernameSteps.contains(step) else { continue }
            guard let session = machine.session, session.uid == step.uid else {
                // No token for that account any more: nothing can be written in its name.
                logger.warning(
                    "Dropping a username step of an account that is no longer signed in",
                    metadata: ["account.uid": "\(step.uid)", "step": "\(step.kind.rawValue)"])
                await removeUsernameSteps([step])
                continue
            }
            do throws(AuthError) {
                switch step.kind {
                case .writeDetails:
                    let owner = try await callMapped { () async throws(RemoteAuthError) in
                        try await directory.owner(of: step.key)
                    }
                    if owner != step.uid {
                        // The claim never landed: the change it belonged to did not happen.
                        logger.info("A username claim did not land; dropping its step", metadata: ["account.uid": "\(step.uid)"])
                        await removeUsernameSteps([step])
                    } else if session.user.isAnonymous {
                        // A sign-up that claimed the name first and then never linked: give it back.
                        await addUsernameSteps([UsernameStep(kind: .release, uid: step.uid, key: step.key, username: step.username)])
                        await removeUsernameSteps([step])
                        try await releaseKey(step.key, of: session, unlessCurrent: false)
                        await removeUsernameSteps([UsernameStep(kind: .release, uid: step.uid, key: step.key, username: step.username)])
                    } else {
                        let details = UsernameDetails(username: step.username, email: session.user.email)
                        try await withToken(of: session) { token async throws(RemoteAuthError) in
                            try await directory.setDetails(details, of: step.uid, idToken: token)
                        }
                        logger.info("Finished a username claim", metadata: ["account.uid": "\(step.uid)"])
                        if var current = machine.session, current.uid == step.uid, current.user.username != step.username {
                            current.user.username = step.username
                            await apply(.updated(current))
                        }
                        await removeUsernameSteps([step])
                    }
                case .release:
                    try await releaseKey(step.key, of: session, unlessCurrent: true)
                    logger.info("Released a username", metadata: ["account.uid": "\(step.uid)"])
                    await removeUsernameSteps([step])
                }
            } catch {
                if error.category == .backend {
                    logger.warning(
                        "Could not finish a username step yet; will retry",
                        metadata: ["account.uid": "\(step.uid)", "error": "\(error.reason.rawValue)"])
                    scheduleUsernameRetry()
                    return
                }
                logger.error(
                    "A username step was refused; dropping it",
                    metadata: ["account.uid": "\(step.uid)", "error": "\(error.reason.rawValue)"])
                await removeUsernameSteps([step])
            }
        }
    }

    /// Releases `key` if `session`'s uid holds it. With `unlessCurrent`, a key that the uid's
    /// details record points at is kept (it is the name in use).
    func releaseKey(_ key: String, of session: Session, unlessCurrent: Bool) async throws(AuthError) {
        guard let directory else { return }
        if unlessCurrent {
            let uid = session.uid
            let details = try await callMapped { () async throws(RemoteAuthError) in try await directory.details(of: uid) }
            if let details, UsernameKey.derive(from: details.username) == key {
                logger.info("Not releasing the username the details record points at", metadata: ["account.uid": "\(uid)"])
                return
            }
        }
        let uid = session.uid
        try await withToken(of: session) { token async throws(RemoteAuthError) in
            try await directory.release(key, of: uid, idToken: token)
        }
    }

    // MARK: - Hooks of the flows

    /// The email to sign in with for an identifier: itself when it contains `@`, else the
    /// email of the username's account.
    ///
    /// For a sign-in every miss (a name that cannot exist, nobody holding it, no details
    /// record, no email in it) is `invalid-login-credentials`, the answer Firebase gives for
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
        let details = try await callMapped { () async throws(RemoteAuthError) in try await directory.details(of: owner) }
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
            logger.warning("Could not give back a claimed username yet", metadata: ["error": "\(error.reason.rawValue)"])
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
            logger.warning("Could not write the username details yet; will retry", metadata: ["error": "\(error.reason.rawValue)"])
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
        if let details = try? await callMapped({ () async throws(RemoteAuthError) in try await directory.details(of: uid) }) {
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
                    "Could not release a username before deleting the account", metadata: ["error": "\(error.reason.rawValue)"])
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
            logger.warning("Could not update the username's email yet; will retry", metadata: ["error": "\(error.reason.rawValue)"])
            let step = UsernameStep(kind: .writeDetails, uid: uid, key: UsernameKey.derive(from: username), username: username)
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
                    kind: .writeDetails, uid: uid, key: UsernameKey.derive(from: details.username), username: details.username)
                await addUsernameSteps([step])
                usernameRetryAt = nil
                wakeMaintenance()
            }
        } catch {
            user.username = fallback
        }
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

    /// Sets (or changes) the account's username: claims the new key atomically, writes the
    /// details record, then releases the old key. A lost race is `username-taken` and changes
    /// nothing; a directory that fails is a backend error and leaves nothing half-claimed.
    public func setUsername(_ username: String) async throws(AuthError) -> AuthState {
        let directory = try requireDirectory()
        return try await exclusively { () async throws(AuthError) in
            guard let session = machine.session else { throw AuthError(.noCurrentUser) }
            guard !session.user.isAnonymous else { throw AuthError(.requiresAccount) }
            let name = try validatedUsername(username)
            let uid = session.uid
            let oldName = session.user.username
            let oldKey = oldName.map(UsernameKey.derive(from:))
            if oldKey == name.key {
                // The same name: only the display case (or form) changes.
                if oldName != name.name {
                    let details = UsernameDetails(username: name.name, email: session.user.email)
                    try await withFreshToken { token async throws(RemoteAuthError) in
                        try await directory.setDetails(details, of: uid, idToken: token)
                    }
                    if var current = machine.session, current.uid == uid {
                        current.user.username = name.name
                        await apply(.updated(current))
                    }
                }
                return makeState()
            }
            let write = UsernameStep(kind: .writeDetails, uid: uid, key: name.key, username: name.name)
            let releaseOld = oldKey.map { UsernameStep(kind: .release, uid: uid, key: $0, username: oldName ?? "") }
            await addUsernameSteps([write] + (releaseOld.map { [$0] } ?? []))

            // 1. Claim the new key.
            let key = name.key
            let won: Bool
            do throws(AuthError) {
                won = try await withFreshToken { token async throws(RemoteAuthError) in
                    try await directory.claim(key, for: uid, idToken: token)
                }
            } catch {
                if error.category == .backend {
                    // The claim may have landed: give it back (now or later), keep the old name.
                    await undoClaim(write, dropping: releaseOld, of: session)
                } else {
                    await removeUsernameSteps([write] + (releaseOld.map { [$0] } ?? []))
                }
                throw error
            }
            guard won else {
                await removeUsernameSteps([write] + (releaseOld.map { [$0] } ?? []))
                throw AuthError(.usernameTaken)
            }

            // 2. Point the details record at it.
            let details = UsernameDetails(username: name.name, email: session.user.email)
            do throws(AuthError) {
                try await withFreshToken { token async throws(RemoteAuthError) in
                    try await directory.setDetails(details, of: uid, idToken: token)
                }
            } catch {
                await undoClaim(write, dropping: releaseOld, of: session)
                throw error
            }
            await removeUsernameSteps([write])
            if var current = machine.session, current.uid == uid {
                current.user.username = name.name
                await apply(.updated(current))
            }
            logger.info("Set the username", metadata: ["session.uid": "\(uid)"])

            // 3. Release the old key (retried later when the directory cannot be reached).
            if let releaseOld {
                do throws(AuthError) {
                    try await releaseKey(releaseOld.key, of: session, unlessCurrent: false)
                    await removeUsernameSteps([releaseOld])
                } catch {
                    logger.warning(
                        "Could not release the old username yet; will retry", metadata: ["error": "\(error.reason.rawValue)"])
                    if error.category == .backend { scheduleUsernameRetry() } else { await removeUsernameSteps([releaseOld]) }
                }
            }
            return makeState()
        }
    }

    /// A rename failed after (maybe) claiming: release the new key and keep the old name.
    private func undoClaim(_ write: UsernameStep, dropping releaseOld: UsernameStep?, of session: Session) async {
        let release = UsernameStep(kind: .release, uid: write.uid, key: write.key, username: write.username)
        await addUsernameSteps([release])
        await removeUsernameSteps([write] + (releaseOld.map { [$0] } ?? []))
        do throws(AuthError) {
            try await releaseKey(write.key, of: session, unlessCurrent: false)
            await removeUsernameSteps([release])
        } catch {
            logger.warning("Could not give back a claimed username yet; will retry", metadata: ["error": "\(error.reason.rawValue)"])
            scheduleUsernameRetry()
        }
    }

    /// Checks a name without claiming it: invalid, reserved, taken by another uid, or
    /// available (the caller's own name is available to it).
    public func checkUsername(_ username: String) async throws(AuthError) -> UsernameCheck {
        let directory = try requireDirectory()
        let name: Username
        switch usernameRules.validate(username) {
        case .valid(let valid): name = valid
        case .rejected(let rejection): return UsernameCheck(available: false, reason: rejection.reason)
        }
        let key = name.key
        let owner = try await callMapped { () async throws(RemoteAuthError) in try await directory.owner(of: key) }
        if let owner, owner != machine.session?.uid {
            return UsernameCheck(available: false, reason: .usernameTaken)
        }
        return UsernameCheck(available: true, reason: nil)
    }
}
