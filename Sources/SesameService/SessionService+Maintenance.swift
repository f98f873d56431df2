import Foundation
import Logging
import SesameCore

/// The background work: renew tokens ahead of expiry, create the anonymous user while offline,
/// work through the cleanup list, finish username steps, complete merges whose hold ran out.
/// ``MaintenanceScheduler`` decides when; this says how each job is done.
extension SessionService {
    /// Runs the maintenance loop, and the work features spawn (``SessionHost/spawn(_:)``) as
    /// its child tasks, until the task is cancelled or ``shutdown(reason:)`` is called (the
    /// children are then cancelled). ``SessionMaintenance`` runs it as a ServiceLifecycle service.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.maintain() }
            for await child in maintenance.children { group.addTask(operation: child) }
            group.cancelAll()
        }
    }

    private func maintain() async {
        await maintenance.run(facts: { maintenanceFacts }, perform: { await perform($0) })
    }

    /// The machine woke from sleep (logind's `PrepareForSleep(false)`): the token is checked at
    /// once and refreshed when it is within the refresh margin or expired (the refresh publishes
    /// the new token), and work waiting out a backoff is tried now.
    public func resumed() {
        let tokenDue = machine.session.map {
            $0.idToken.remainingValidity(at: now()) <= maintenance.refreshSchedule.margin
        }
        maintenance.handle(.resumed(at: now(), tokenDue: tokenDue ?? false))
    }

    /// The calendar jumped (NTP stepping the clock after a resume, `date -s`, a dead RTC set
    /// right; the daemon hears it from the kernel). Nothing the daemon decides moves: tokens,
    /// plans and flows are on its steady timeline (``SteadyClock``), and the local API shows
    /// their dates on the calendar as it reads now. Subscribers are told the token's expiry as
    /// the calendar now reads it (`idTokenChanged`, the same token) when it moved a second or
    /// more since the last event.
    public func calendarChanged() async {
        guard let session = machine.session, abs(calendarOffset() - eventBus.shownOffset) >= 1 else { return }
        await emitInOrder(.idTokenChanged(uid: session.uid, expiresAt: session.idToken.expiresAt))
    }

    /// A route or an address changed (the caller coalesces bursts): work waiting out a backoff,
    /// such as the refresh of an offline daemon, is tried now instead.
    public func networkChanged() {
        maintenance.handle(.networkChanged(at: now()))
    }

    /// The next moment background work is planned for, or nil (for tests and diagnostics).
    public var nextPlannedWork: Date? { maintenance.plan.nextDeadline(maintenanceFacts) }

    /// What the plan needs to know about the session now.
    var maintenanceFacts: MaintenancePlan.Facts {
        MaintenancePlan.Facts(
            loaded: machine.status != .starting, hasSession: machine.session != nil,
            anonymousFirst: machine.anonymousFirst, hasCleanup: machine.persisted.hasPendingCleanup,
            hasUsernameSteps: features.usernames != nil && !machine.persisted.pendingUsernameSteps.isEmpty,
            merges: machine.persisted.pendingMerges.map(\.merge), mergeHold: maintenance.mergeHold)
    }

    /// Performs one due job. Each job takes itself off the plan (or plans its retry), so a job
    /// that cannot be done is not due again at once.
    private func perform(_ job: MaintenancePlan.Job) async {
        await BackendOperation.$current.withValue(Self.operation(of: job)) { await performNow(job) }
    }

    /// The local API method a job does the work of (``BackendOperation``); nil for none.
    private static func operation(of job: MaintenancePlan.Job) -> String? {
        switch job {
        case .writeKeyring: nil
        case .createAnonymousUser: "signInAnonymously"
        case .refreshToken: BackendOperation.refresh
        case .cleanup: "signOut"
        case .finishUsernameSteps: "setUsername"
        case .completeMerge: "completeMerge"
        }
    }

    private func performNow(_ job: MaintenancePlan.Job) async {
        switch job {
        case .writeKeyring:
            await acquire(\.changes)
            defer { locks.changes.release() }
            await persist()
        case .createAnonymousUser:
            do throws(AuthError) {
                try await exclusively { () async throws(AuthError) in
                    if machine.session == nil { try await createAnonymousUser() }
                }
            } catch {
                maintenance.handle(
                    .anonymousFailed(
                        at: now(), random: .random(in: 0...1),
                        retryAfter: MaintenancePlan.spread(error.rateLimitWait, random: .random(in: 0...1))))
                logger.info(
                    "Could not create the anonymous user yet; will retry",
                    metadata: [
                        "retry.at": "\(maintenance.plan.anonymousAt.map { "\($0)" } ?? "-")",
                        "error": "\(error.reason.rawValue)",
                    ])
            }
        case .refreshToken:
            maintenance.handle(.refreshTaken)
            do throws(RemoteAuthError) {
                _ = try await refreshCurrentSession()
            } catch {
                if error.isTransient, machine.session != nil {
                    maintenance.handle(
                        .refreshFailed(
                            at: now(), random: .random(in: 0...1),
                            retryAfter: MaintenancePlan.spread(error.retryAfter, random: .random(in: 0...1))))
                }
            }
        case .cleanup:
            await processDeletionsNow()
        case .finishUsernameSteps:
            guard let usernames = features.usernames else { return }
            _ = try? await exclusively { () async throws(AuthError) in await usernames.finishSteps(in: self) }
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
