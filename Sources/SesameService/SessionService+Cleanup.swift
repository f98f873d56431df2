import Foundation
import Logging
import SesameCore

/// The backend cleanup the keyring lists durably: given-up anonymous accounts to delete and left
/// sessions to end (server-side sign-out), retried with backoff until the backend confirms.
extension SessionService {
    /// Works through the cleanup list until it is empty or the backend cannot be reached.
    ///
    /// The due work is taken at once (`cleanupTaken`), even when a run is already
    /// under way: that run reads the list again after each item, so it also handles the ones
    /// added meanwhile. (Leaving a past deadline behind made the maintenance loop spin on the
    /// actor, starving the running cleanup, and the flow waiting on it, forever.)
    func processDeletionsNow() async {
        plan.handle(.cleanupTaken)
        guard !deletionsRunning else { return }
        deletionsRunning = true
        defer { deletionsRunning = false }
        var attempted = Set<String>()
        while true {
            let failure: RemoteAuthError?
            if let victim = machine.persisted.pendingDeletions.first(where: { !attempted.contains("d:" + $0.uid) }) {
                attempted.insert("d:" + victim.uid)
                failure = await runCleanup(.deleteAccount(victim))
            } else if let left = machine.persisted.pendingRevocations.first(where: {
                !attempted.contains("r:" + $0.refreshToken.rawValue)
            }) {
                attempted.insert("r:" + left.refreshToken.rawValue)
                failure = await runCleanup(.revokeSession(left))
            } else {
                break
            }
            if let failure {
                logger.warning(
                    "Could not finish the backend cleanup yet; will retry", metadata: ["error": "\(failure)"])
                plan.handle(.cleanupFailed(at: now(), random: .random(in: 0...1), retryAfter: failure.retryAfter))
                wakeMaintenance()
                return
            }
        }
        plan.handle(.cleanupFinished)
    }

    /// Runs one item's ``CleanupJob`` to its end: performs each action the job returns and
    /// feeds the outcome back. Returns the failure to retry later, or nil once the item is off
    /// the list.
    private func runCleanup(_ item: CleanupJob.Item) async -> RemoteAuthError? {
        let provider = self.provider
        let session = item.session
        var job = CleanupJob(item)
        var action = job.start(at: now())
        while true {
            do throws(RemoteAuthError) {
                switch action {
                case .refresh:
                    let grant = try await call { () async throws(RemoteAuthError) in
                        try await provider.refresh(session.refreshToken)
                    }
                    action = job.handle(.refreshed(grant.idToken))
                case .lookup(let token):
                    let user = try await call { () async throws(RemoteAuthError) in try await provider.lookup(token) }
                    action = job.handle(.lookedUp(isAnonymous: user.isAnonymous))
                case .delete(let token):
                    try await call { () async throws(RemoteAuthError) in try await provider.deleteAccount(token) }
                    action = job.handle(.deleted)
                case .revoke(let token):
                    try await call { () async throws(RemoteAuthError) in try await provider.revokeSession(token) }
                    action = job.handle(.revoked)
                case .confirm(let outcome):
                    log(outcome, of: session)
                    switch item {
                    case .deleteAccount: await apply(.deletionConfirmed(uid: session.uid))
                    case .revokeSession: await apply(.revocationConfirmed(session.refreshToken))
                    }
                    return nil
                case .retryLater(let error):
                    return error
                }
            } catch {
                action = job.handle(.failed(error))
            }
        }
    }

    private func log(_ outcome: CleanupJob.Outcome, of session: Session) {
        let metadata: Logger.Metadata = ["account.uid": "\(session.uid)"]
        switch outcome {
        case .deleted: logger.info("Deleted a given-up anonymous account", metadata: metadata)
        case .alreadyGone: logger.info("A given-up anonymous account was already gone", metadata: metadata)
        case .noLongerAnonymous:
            logger.warning(
                "A given-up account is no longer anonymous at the backend (linked meanwhile); keeping it",
                metadata: metadata)
        case .revokedInstead:
            logger.warning(
                "The backend cannot delete a given-up anonymous account; signed it out at the backend instead",
                metadata: metadata)
        case .revoked: logger.debug("Ended a left session at the backend", metadata: metadata)
        case .nothingToEnd: logger.debug("A left session needs no ending at the backend", metadata: metadata)
        }
    }
}
