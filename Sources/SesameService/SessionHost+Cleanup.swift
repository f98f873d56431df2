import Foundation
import Logging
import SesameCore

/// The backend cleanup the keyring lists durably: given-up anonymous accounts to delete and left
/// sessions to end (server-side sign-out), retried with backoff until the backend confirms.
extension SessionHost {
    /// Works through the cleanup list until it is empty or the backend cannot be reached.
    ///
    /// The due work is taken at once (`cleanupTaken`), even when a run is already
    /// under way: that run reads the list again after each item, so it also handles the ones
    /// added meanwhile. (Leaving a past deadline behind made the maintenance loop spin on the
    /// actor, starving the running cleanup, and the flow waiting on it, forever.)
    func processDeletionsNow() async {
        plan(.cleanupTaken)
        guard !features.cleanupRunning else { return }
        features.cleanupRunning = true
        defer { features.cleanupRunning = false }
        var attempted = Set<String>()
        while true {
            let failure: RemoteAuthError?
            if let victim = persisted.pendingDeletions.first(where: { !attempted.contains("d:" + $0.uid) }) {
                attempted.insert("d:" + victim.uid)
                failure = await runCleanup(.deleteAccount(victim))
            } else if let left = persisted.pendingRevocations.first(where: {
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
                plan(
                    .cleanupFailed(
                        at: now(), random: .random(in: 0...1),
                        retryAfter: MaintenancePlan.spread(failure.retryAfter, random: .random(in: 0...1))))
                return
            }
        }
        plan(.cleanupFinished)
    }

    /// Runs one item's ``CleanupJob`` to its end. Returns the failure to retry later, or nil
    /// once the item is off the list.
    private func runCleanup(_ item: CleanupJob.Item) async -> RemoteAuthError? {
        var job = CleanupJob(item)
        let first = job.start(at: now())
        let flow = CleanupFlow(item: item)
        return await job.drive(from: first) { (action) async throws(RemoteAuthError) in
            try await flow.perform(action, in: self)
        }
    }
}
