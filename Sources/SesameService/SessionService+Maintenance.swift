import Foundation
import Logging
import SesameCore

/// The background work: renew tokens ahead of expiry, create the anonymous user while offline,
/// delete given-up accounts, complete merges whose hold ran out. One loop, driven by the
/// injected clock, woken early whenever the plan changes.
extension SessionService {
    /// Runs until the task is cancelled or ``shutdown(reason:)`` is called.
    public func run() async {
        while !stopped && !Task.isCancelled {
            await waitForWork()
            if stopped || Task.isCancelled { break }
            await performDueWork()
        }
    }

    /// The earliest moment something is due, or nil when nothing is planned.
    func nextDeadline() -> Date? {
        var deadlines: [Date] = []
        if machine.session != nil, let refreshAt { deadlines.append(refreshAt) }
        if machine.session == nil, configuration.anonymousFirst, machine.status != .starting, let anonymousRetryAt {
            deadlines.append(anonymousRetryAt)
        }
        if !machine.persisted.pendingDeletions.isEmpty, let deletionRetryAt { deadlines.append(deletionRetryAt) }
        if configuration.mergeHold > 0 {
            deadlines += machine.persisted.pendingMerges.map { $0.merge.createdAt.addingTimeInterval(configuration.mergeHold) }
        }
        return deadlines.min()
    }

    func waitForWork() async {
        if maintenanceWakePending {
            maintenanceWakePending = false
            return
        }
        var deadline = nextDeadline()
        if let due = deadline, due <= now() {
            immediateRounds += 1
            if immediateRounds < 50 { return }
            // Something stays due without being handled: pause a second instead of spinning on
            // the actor (and say so, since it is a bug).
            logger.warning("The maintenance loop found work it could not do; pausing for a second")
            immediateRounds = 0
            deadline = now().addingTimeInterval(1)
        } else {
            immediateRounds = 0
        }
        let timer: Task<Void, Never>? = deadline.map { deadline in
            let delay = deadline.timeIntervalSince(now())
            let sleeper = self.sleeper
            return Task {
                try? await sleeper.sleep(seconds: delay)
                if !Task.isCancelled { await self.wakeMaintenance() }
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { maintenanceWaiter = $0 }
        } onCancel: {
            Task { await self.wakeMaintenance() }
        }
        timer?.cancel()
    }

    /// Wakes the loop so it looks at its plan again.
    func wakeMaintenance() {
        if let waiter = maintenanceWaiter {
            maintenanceWaiter = nil
            waiter.resume()
        } else {
            maintenanceWakePending = true
        }
    }

    func performDueWork() async {
        let due = now()
        if machine.session == nil, configuration.anonymousFirst, machine.status != .starting,
            let retryAt = anonymousRetryAt, retryAt <= due
        {
            do throws(AuthError) {
                try await exclusively { () async throws(AuthError) in
                    if machine.session == nil { try await createAnonymousUser() }
                }
            } catch {
                let delay = anonymousBackoff.nextDelay(random: .random(in: 0...1))
                logger.info(
                    "Could not create the anonymous user yet; will retry",
                    metadata: ["retry.seconds": "\(Int(delay))", "error": "\(error.reason.rawValue)"])
                anonymousRetryAt = now().addingTimeInterval(delay)
            }
        }
        if machine.session != nil, let refreshAt, refreshAt <= due {
            self.refreshAt = nil
            do throws(RemoteAuthError) {
                _ = try await refreshCurrentSession()
            } catch {
                if error.isTransient, machine.session != nil {
                    self.refreshAt = now().addingTimeInterval(refreshBackoff.nextDelay(random: .random(in: 0...1)))
                }
            }
        }
        if !machine.persisted.pendingDeletions.isEmpty, let deletionRetryAt, deletionRetryAt <= due {
            await processDeletionsNow()
        }
        await finishUsernameStepsIfDue()
        if configuration.mergeHold > 0 {
            let expired = machine.persisted.pendingMerges.filter {
                $0.merge.createdAt.addingTimeInterval(configuration.mergeHold) <= due
            }
            for pending in expired {
                _ = try? await exclusively { () async throws(AuthError) in
                    if machine.persisted.pendingMerges.contains(where: { $0.merge.mergeId == pending.merge.mergeId }) {
                        logger.info("A merge's hold ran out", metadata: ["merge.id": "\(pending.merge.mergeId)"])
                        await completeMergeNow(pending.merge.mergeId)
                    }
                }
            }
        }
    }

    /// Plans the next refresh of the current token (expiry minus the margin, with jitter).
    func planRefresh() {
        guard let session = machine.session else {
            refreshAt = nil
            return
        }
        let schedule = RefreshSchedule(margin: configuration.refreshMargin)
        refreshAt = schedule.refreshTime(for: session.idToken, jitter: .random(in: 0...1))
        wakeMaintenance()
    }
}
