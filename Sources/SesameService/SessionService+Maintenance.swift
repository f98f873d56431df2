import Foundation
import Logging
import SesameCore

/// The background work: renew tokens ahead of expiry, create the anonymous user while offline,
/// work through the cleanup list, finish username steps, complete merges whose hold ran out.
/// ``MaintenancePlan`` decides what is due when; this loop sleeps on the injected clock until
/// then, or until the plan changes, and performs the due jobs.
extension SessionService {
    /// Runs the maintenance loop until the task is cancelled or ``shutdown(reason:)`` is called.
    /// ``SessionMaintenance`` runs it as a ServiceLifecycle service.
    public func run() async {
        while !stopped && !Task.isCancelled {
            await waitForWork()
            if stopped || Task.isCancelled { break }
            await performDueWork()
        }
    }

    /// The next moment background work is planned for, or nil (for tests and diagnostics).
    public var nextPlannedWork: Date? { plan.nextDeadline(maintenanceFacts) }

    /// What the plan needs to know about the session now.
    var maintenanceFacts: MaintenancePlan.Facts {
        MaintenancePlan.Facts(
            loaded: machine.status != .starting, hasSession: machine.session != nil,
            anonymousFirst: configuration.anonymousFirst, hasCleanup: machine.persisted.hasPendingCleanup,
            hasUsernameSteps: directory != nil && !machine.persisted.pendingUsernameSteps.isEmpty,
            merges: machine.persisted.pendingMerges.map(\.merge), mergeHold: configuration.mergeHold)
    }

    /// Returns when something is due, or when the plan changed (``wakeMaintenance()``).
    func waitForWork() async {
        if maintenanceWakePending {
            maintenanceWakePending = false
            return
        }
        let deadline = plan.nextDeadline(maintenanceFacts)
        if let deadline, deadline <= now() { return }
        let timer: Task<Void, Never>? = deadline.map { deadline in
            let delay = deadline.timeIntervalSince(now())
            let sleeper = self.sleeper
            return Task {
                try? await sleeper.sleep(seconds: delay)
                if !Task.isCancelled { self.wakeMaintenance() }
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

    /// Performs every job due now. Each job takes itself off the plan (or plans its retry), so
    /// a job that cannot be done is not due again at once.
    func performDueWork() async {
        for job in plan.due(at: now(), maintenanceFacts) {
            switch job {
            case .writeKeyring:
                await rewriteKeyring()
            case .createAnonymousUser:
                do throws(AuthError) {
                    try await exclusively { () async throws(AuthError) in
                        if machine.session == nil { try await createAnonymousUser() }
                    }
                } catch {
                    plan.handle(
                        .anonymousFailed(at: now(), random: .random(in: 0...1), retryAfter: error.rateLimitWait))
                    logger.info(
                        "Could not create the anonymous user yet; will retry",
                        metadata: [
                            "retry.at": "\(plan.anonymousAt.map { "\($0)" } ?? "-")",
                            "error": "\(error.reason.rawValue)",
                        ])
                }
            case .refreshToken:
                plan.handle(.refreshTaken)
                do throws(RemoteAuthError) {
                    _ = try await refreshCurrentSession()
                } catch {
                    if error.isTransient, machine.session != nil {
                        plan.handle(.refreshFailed(at: now(), random: .random(in: 0...1), retryAfter: error.retryAfter))
                    }
                }
            case .cleanup:
                await processDeletionsNow()
            case .finishUsernameSteps:
                _ = try? await exclusively { () async throws(AuthError) in await finishUsernameSteps() }
            case .completeMerge(let mergeId):
                _ = try? await exclusively { () async throws(AuthError) in
                    if machine.persisted.pendingMerges.contains(where: { $0.merge.mergeId == mergeId }) {
                        logger.info("A merge's hold ran out", metadata: ["merge.id": "\(mergeId)"])
                        await completeMergeNow(mergeId)
                    }
                }
            }
        }
    }

    /// Plans the next refresh of the current token (expiry minus the margin, with jitter).
    func planRefresh() {
        guard let session = machine.session else {
            plan.handle(.refreshPlanned(nil))
            return
        }
        let schedule = RefreshSchedule(margin: configuration.refreshMargin)
        plan.handle(.refreshPlanned(schedule.refreshTime(for: session.idToken, jitter: .random(in: 0...1))))
        wakeMaintenance()
    }
}
