import Foundation
import Logging
import SesameCore

/// The durable username steps (`pendingUsernameSteps`): recorded before a directory write,
/// removed once it is done, finished by the maintenance loop after a crash or a failure.
extension UsernameFlows {
    /// Works through `pendingUsernameSteps` in order, each with its ``UsernameStepJob``. Call
    /// only inside `exclusively`. Stops at the first step the directory cannot be reached for
    /// (and plans a retry).
    func finishSteps(in host: isolated some SessionHost) async {
        for step in host.persisted.pendingUsernameSteps {
            guard host.persisted.pendingUsernameSteps.contains(step) else { continue }
            if await finish(step, in: host) == .stop { return }
        }
    }

    private enum StepEnd {
        case nextStep
        case stop
    }

    /// Runs one step's ``UsernameStepJob`` to its end.
    private func finish(_ step: UsernameStep, in host: isolated some SessionHost) async -> StepEnd {
        typealias Step = StepResult<UsernameStepJob.Event, StepEnd>
        let (logger, directory) = (host.logger, self.directory)
        let session = host.session
        var job = UsernameStepJob(step)
        let first = job.start(
            signedIn: session.map {
                UsernameStepJob.Account(uid: $0.uid, isAnonymous: $0.user.isAnonymous, email: $0.user.email)
            })
        if session?.uid != step.uid {
            logger.warning(
                "Dropping a username step of an account that is no longer signed in",
                metadata: ["account.uid": "\(step.uid)", "step": "\(step.kind.rawValue)"])
        }
        return await job.drive(
            from: first,
            failed: { error in
                if error.category == .backend {
                    logger.warning(
                        "Could not finish a username step yet; will retry",
                        metadata: ["account.uid": "\(step.uid)", "error": "\(error.reason.rawValue)"])
                } else {
                    logger.error(
                        "A username step was refused; dropping it",
                        metadata: ["account.uid": "\(step.uid)", "error": "\(error.reason.rawValue)"])
                }
            }
        ) { (action) async throws(AuthError) -> Step in
            switch action {
            case .readOwner(let key):
                let owner = try await host.callMapped { () async throws(RemoteAuthError) in
                    try await directory.owner(of: key)
                }
                if owner != step.uid {
                    logger.info(
                        "A username claim did not land; dropping its step", metadata: ["account.uid": "\(step.uid)"])
                }
                return .next(.owner(owner))
            case .writeDetails(let details):
                guard let session else { return .finished(.stop) }
                let uid = step.uid
                try await withToken(of: session, in: host) { token async throws(RemoteAuthError) in
                    try await directory.setDetails(details, of: uid, idToken: token)
                }
                logger.info("Finished a username claim", metadata: ["account.uid": "\(step.uid)"])
                return .next(.detailsWritten)
            case .replaceWithRelease(let release):
                await addSteps([release], in: host)
                await removeSteps([step], in: host)
                return .next(.replaced)
            case .release(let key, let unlessCurrent):
                guard let session else { return .finished(.stop) }
                try await releaseKey(key, of: session, unlessCurrent: unlessCurrent, in: host)
                logger.info("Released a username", metadata: ["account.uid": "\(step.uid)"])
                return .next(.released)
            case .adopt(let username):
                if var current = host.session, current.uid == step.uid, current.user.username != username {
                    current.user.username = username
                    await host.apply(.updated(current))
                }
                return .next(.adopted)
            case .finish(let done):
                await removeSteps(done, in: host)
                return .finished(.nextStep)
            case .retryLater:
                scheduleRetry(in: host)
                return .finished(.stop)
            }
        }
    }

    /// Releases `key` if `session`'s uid holds it. With `unlessCurrent`, a key that the uid's
    /// details record points at is kept (it is the name in use).
    func releaseKey(
        _ key: String, of session: Session, unlessCurrent: Bool, in host: isolated some SessionHost
    ) async throws(AuthError) {
        let (uid, directory) = (session.uid, self.directory)
        if unlessCurrent {
            let details = try await host.callMapped { () async throws(RemoteAuthError) in
                try await directory.details(of: uid)
            }
            if let details, UsernameKey.derive(from: details.username) == key {
                host.logger.info(
                    "Not releasing the username the details record points at", metadata: ["account.uid": "\(uid)"])
                return
            }
        }
        try await withToken(of: session, in: host) { token async throws(RemoteAuthError) in
            try await directory.release(key, of: uid, idToken: token)
        }
    }
}
