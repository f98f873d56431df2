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
