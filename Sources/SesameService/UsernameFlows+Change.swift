import Foundation
import Logging
import SesameCore

extension UsernameFlows {
    /// Sets (or changes) the account's username: claims the new key atomically, writes the
    /// details record, then releases the old key. A lost race is `username-taken` and changes
    /// nothing; a directory that fails is a backend error and leaves nothing half-claimed.
    /// The steps (and their undo) are ``UsernameChange``'s. Call inside `exclusively`.
    func setUsername(_ username: String, in host: isolated some SessionHost) async throws(AuthError) -> AuthState {
        typealias Step = StepResult<UsernameChange.Event, Result<AuthState, AuthError>>
        guard let session = host.session else { throw AuthError(.noCurrentUser) }
        guard !session.user.isAnonymous else { throw AuthError(.requiresAccount) }
        let name = try validated(username)
        let uid = session.uid
        let directory = self.directory
        let logger = host.logger
        var job = UsernameChange(
            uid: uid, username: name, oldUsername: session.user.username, email: session.user.email)
        let first = job.start()
        return try await job.drive(
            from: first,
            failed: { error in
                logger.warning(
                    "A username directory call failed",
                    metadata: ["session.uid": "\(uid)", "error": "\(error.reason.rawValue)"])
            }
        ) { (action) async throws(AuthError) -> Step in
            switch action {
            case .updateSteps(let adding, let removing):
                await changeSteps(adding: adding, removing: removing, in: host)
                return .next(.stepsUpdated)
            case .claim(let key):
                let won = try await host.withFreshToken { token async throws(RemoteAuthError) in
                    try await directory.claim(key, for: uid, idToken: token)
                }
                return .next(.claimed(won: won))
            case .writeDetails(let details):
                try await host.withFreshToken { token async throws(RemoteAuthError) in
                    try await directory.setDetails(details, of: uid, idToken: token)
                }
                return .next(.detailsWritten)
            case .readDetails:
                let record = try await host.callMapped { () async throws(RemoteAuthError) in
                    try await directory.details(of: uid)
                }
                return .next(.detailsRead(record))
            case .release(let key, let unlessCurrent):
                try await releaseKey(key, of: session, unlessCurrent: unlessCurrent, in: host)
                return .next(.released)
            case .adopt(let name):
                if var current = host.session, current.uid == uid {
                    current.user.username = name
                    await host.apply(.updated(current))
                }
                logger.info("Set the username", metadata: ["session.uid": "\(uid)"])
                return .next(.adopted)
            case .retryLater:
                logger.warning("Could not release a username yet; will retry", metadata: ["session.uid": "\(uid)"])
                scheduleRetry(in: host)
                return .next(.retryPlanned)
            case .done:
                return .finished(.success(host.state))
            case .fail(let error):
                return .finished(.failure(error))
            }
        }.get()
    }

    /// Checks a name without claiming it: invalid, reserved, taken by another uid, or
    /// available (the caller's own name is available to it).
    func checkUsername(
        _ username: String, in host: isolated some SessionHost
    ) async throws(AuthError) -> SessionService.UsernameCheck {
        let name: Username
        switch rules.validate(username) {
        case .valid(let valid): name = valid
        case .rejected(let rejection): return SessionService.UsernameCheck(available: false, reason: rejection.reason)
        }
        let key = name.key
        let directory = self.directory
        let owner = try await host.callMapped { () async throws(RemoteAuthError) in
            try await directory.owner(of: key)
        }
        if let owner, owner != host.session?.uid {
            return SessionService.UsernameCheck(available: false, reason: .usernameTaken)
        }
        return SessionService.UsernameCheck(available: true, reason: nil)
    }
}
