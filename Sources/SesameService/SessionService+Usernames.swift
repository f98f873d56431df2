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
    /// The steps (and their undo) are ``UsernameChange``'s.
    public func setUsername(_ username: String) async throws(AuthError) -> AuthState {
        let directory = try requireDirectory()
        return try await exclusively { () async throws(AuthError) in
            guard let session = machine.session else { throw AuthError(.noCurrentUser) }
            guard !session.user.isAnonymous else { throw AuthError(.requiresAccount) }
            let name = try validatedUsername(username)
            let uid = session.uid
            var job = UsernameChange(
                uid: uid, username: name, oldUsername: session.user.username, email: session.user.email)
            var action = job.start()
            while true {
                do throws(AuthError) {
                    switch action {
                    case .updateSteps(let adding, let removing):
                        await changeUsernameSteps(adding: adding, removing: removing)
                        action = job.handle(.stepsUpdated)
                    case .claim(let key):
                        let won = try await withFreshToken { token async throws(RemoteAuthError) in
                            try await directory.claim(key, for: uid, idToken: token)
                        }
                        action = job.handle(.claimed(won: won))
                    case .writeDetails(let details):
                        try await withFreshToken { token async throws(RemoteAuthError) in
                            try await directory.setDetails(details, of: uid, idToken: token)
                        }
                        action = job.handle(.detailsWritten)
                    case .readDetails:
                        let record = try await callMapped { () async throws(RemoteAuthError) in
                            try await directory.details(of: uid)
                        }
                        action = job.handle(.detailsRead(record))
                    case .release(let key, let unlessCurrent):
                        try await releaseKey(key, of: session, unlessCurrent: unlessCurrent)
                        action = job.handle(.released)
                    case .adopt(let name):
                        if var current = machine.session, current.uid == uid {
                            current.user.username = name
                            await apply(.updated(current))
                        }
                        logger.info("Set the username", metadata: ["session.uid": "\(uid)"])
                        action = job.handle(.adopted)
                    case .retryLater:
                        logger.warning(
                            "Could not release a username yet; will retry", metadata: ["session.uid": "\(uid)"])
                        scheduleUsernameRetry()
                        action = job.handle(.retryPlanned)
                    case .done:
                        return makeState()
                    case .fail(let error):
                        throw error
                    }
                } catch {
                    if case .fail = action { throw error }
                    logger.warning(
                        "A username directory call failed",
                        metadata: ["session.uid": "\(uid)", "error": "\(error.reason.rawValue)"])
                    action = job.handle(.failed(error))
                }
            }
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
