import Foundation
import Logging
import SesameCore

/// The durable username steps (`pendingUsernameSteps`): recorded before a directory write,
/// removed once it is done, finished by the maintenance loop after a crash or a failure.
extension SessionService {
    func addUsernameSteps(_ steps: [UsernameStep]) async {
        var all = machine.persisted.pendingUsernameSteps
        for step in steps where !all.contains(step) { all.append(step) }
        await apply(.usernameStepsChanged(all))
    }

    func removeUsernameSteps(_ steps: [UsernameStep]) async {
        await apply(.usernameStepsChanged(machine.persisted.pendingUsernameSteps.filter { !steps.contains($0) }))
    }

    /// Adds and removes steps in one keyring write.
    func changeUsernameSteps(adding: [UsernameStep], removing: [UsernameStep]) async {
        var all = machine.persisted.pendingUsernameSteps.filter { !removing.contains($0) }
        for step in adding where !all.contains(step) { all.append(step) }
        await apply(.usernameStepsChanged(all))
    }

    func scheduleUsernameRetry() {
        plan.handle(.usernameStepsFailed(at: now(), random: .random(in: 0...1)))
        wakeMaintenance()
    }

    /// Works through `pendingUsernameSteps` in order, each with its ``UsernameStepJob``. Call
    /// only inside `exclusively`. Stops at the first step the directory cannot be reached for
    /// (and plans a retry).
    func finishUsernameSteps() async {
        guard let directory else { return }
        for step in machine.persisted.pendingUsernameSteps {
            guard machine.persisted.pendingUsernameSteps.contains(step) else { continue }
            let session = machine.session
            var job = UsernameStepJob(step)
            var action = job.start(
                signedIn: session.map {
                    UsernameStepJob.Account(uid: $0.uid, isAnonymous: $0.user.isAnonymous, email: $0.user.email)
                })
            if session?.uid != step.uid {
                logger.warning(
                    "Dropping a username step of an account that is no longer signed in",
                    metadata: ["account.uid": "\(step.uid)", "step": "\(step.kind.rawValue)"])
            }
            steps: while true {
                do throws(AuthError) {
                    switch action {
                    case .readOwner(let key):
                        let owner = try await callMapped { () async throws(RemoteAuthError) in
                            try await directory.owner(of: key)
                        }
                        if owner != step.uid {
                            logger.info(
                                "A username claim did not land; dropping its step",
                                metadata: ["account.uid": "\(step.uid)"])
                        }
                        action = job.handle(.owner(owner))
                    case .writeDetails(let details):
                        guard let session else { return }
                        let uid = step.uid
                        try await withToken(of: session) { token async throws(RemoteAuthError) in
                            try await directory.setDetails(details, of: uid, idToken: token)
                        }
                        logger.info("Finished a username claim", metadata: ["account.uid": "\(step.uid)"])
                        action = job.handle(.detailsWritten)
                    case .replaceWithRelease(let release):
                        await addUsernameSteps([release])
                        await removeUsernameSteps([step])
                        action = job.handle(.replaced)
                    case .release(let key, let unlessCurrent):
                        guard let session else { return }
                        try await releaseKey(key, of: session, unlessCurrent: unlessCurrent)
                        logger.info("Released a username", metadata: ["account.uid": "\(step.uid)"])
                        action = job.handle(.released)
                    case .adopt(let username):
                        if var current = machine.session, current.uid == step.uid, current.user.username != username {
                            current.user.username = username
                            await apply(.updated(current))
                        }
                        action = job.handle(.adopted)
                    case .finish(let done):
                        await removeUsernameSteps(done)
                        break steps
                    case .retryLater:
                        scheduleUsernameRetry()
                        return
                    }
                } catch {
                    if error.category == .backend {
                        logger.warning(
                            "Could not finish a username step yet; will retry",
                            metadata: ["account.uid": "\(step.uid)", "error": "\(error.reason.rawValue)"])
                        action = job.handle(.unreachable)
                    } else {
                        logger.error(
                            "A username step was refused; dropping it",
                            metadata: ["account.uid": "\(step.uid)", "error": "\(error.reason.rawValue)"])
                        action = job.handle(.refused)
                    }
                }
            }
        }
    }

    /// Releases `key` if `session`'s uid holds it. With `unlessCurrent`, a key that the uid's
    /// details record points at is kept (it is the name in use).
    func releaseKey(_ key: String, of session: Session, unlessCurrent: Bool) async throws(AuthError) {
        guard let directory else { return }
        if unlessCurrent {
            let uid = session.uid
            let details = try await callMapped { () async throws(RemoteAuthError) in
                try await directory.details(of: uid)
            }
            if let details, UsernameKey.derive(from: details.username) == key {
                logger.info(
                    "Not releasing the username the details record points at", metadata: ["account.uid": "\(uid)"])
                return
            }
        }
        let uid = session.uid
        try await withToken(of: session) { token async throws(RemoteAuthError) in
            try await directory.release(key, of: uid, idToken: token)
        }
    }
}
