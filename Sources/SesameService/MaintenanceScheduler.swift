import Foundation
import SesameCore

/// When the session's background work is due, and the loop that waits for it.
///
/// It owns the ``MaintenancePlan`` (what is due when) and a wake-up stream. Every change to the
/// plan goes through ``handle(_:)``, which also wakes the loop so it looks at the plan again.
/// ``run(isolation:facts:perform:)`` waits for the earlier of the plan's next deadline on the
/// injected clock and the next wake-up, performs the jobs due, and repeats.
///
/// Owned by ``SessionService`` and used only on its executor (not Sendable).
final class MaintenanceScheduler {
    private(set) var plan = MaintenancePlan()
    /// Renew a token this long before it expires (`session.refresh_margin`), with jitter.
    let refreshSchedule: RefreshSchedule
    /// Seconds a merge waits for a migrator (`merge.hold`); 0 completes merges at once.
    let mergeHold: TimeInterval
    /// `session.first_guest_window` (``SessionServiceConfiguration/firstGuestWindow``).
    let firstGuestWindow: TimeInterval
    private(set) var isStopped = false
    private let now: @Sendable () -> Date
    private let sleeper: any Sleeper
    private let wakeUps: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation
    /// Work to start as child tasks of the service's `run()` (``spawn(_:)``), in order.
    let children: AsyncStream<@Sendable () async -> Void>
    private let child: AsyncStream<@Sendable () async -> Void>.Continuation

    init(
        now: @escaping @Sendable () -> Date, sleeper: any Sleeper, refreshMargin: TimeInterval, mergeHold: TimeInterval,
        firstGuestWindow: TimeInterval = 0
    ) {
        self.firstGuestWindow = firstGuestWindow
        self.now = now
        self.sleeper = sleeper
        self.refreshSchedule = RefreshSchedule(margin: refreshMargin)
        self.mergeHold = mergeHold
        // Wake-ups that come while the loop is busy fold into one: it reads the whole plan anyway.
        (wakeUps, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (children, child) = AsyncStream.makeStream(of: (@Sendable () async -> Void).self)
    }

    /// Changes the plan and wakes the loop.
    func handle(_ event: MaintenancePlan.Event) {
        plan.handle(event)
        wakeUp.yield()
    }

    /// On a fresh machine: the first guest at a random moment within ``firstGuestWindow``
    /// (`random` in 0...1); whether it was put off.
    func spreadFirstGuest(random: Double) -> Bool {
        guard firstGuestWindow.isFinite, firstGuestWindow > 0 else { return false }
        handle(.anonymousNeeded(at: now().addingTimeInterval(firstGuestWindow * max(0, min(1, random)))))
        return true
    }

    /// Plans the next refresh of `session`'s token (nil: none): at once for a token issued in
    /// the future (its validity is unknown: ``IDToken/isIssuedInTheFuture(at:)``).
    func planRefresh(of session: Session?) {
        let now = now()
        handle(
            .refreshPlanned(
                session.map {
                    $0.idToken.isIssuedInTheFuture(at: now)
                        ? now : refreshSchedule.refreshTime(for: $0.idToken, jitter: .random(in: 0...1))
                }))
    }

    /// Hands `work` to the service's `run()`, which starts it as a child task (after `run()`
    /// has started; nothing once stopped).
    func spawn(_ work: @escaping @Sendable () async -> Void) {
        child.yield(work)
    }

    /// Ends ``run(isolation:facts:perform:)`` after the job it is performing, and the stream of
    /// ``children`` (their tasks are then cancelled).
    func stop() {
        isStopped = true
        wakeUp.yield()
        child.finish()
    }

    /// Performs the due jobs (``MaintenancePlan/due(at:_:)``, each taking itself off the plan or
    /// planning its retry) until ``stop()`` or cancellation, waiting in between.
    /// - Parameters:
    ///   - facts: what the plan needs to know about the session now.
    ///   - perform: performs one job, on the caller's actor.
    func run(
        isolation: isolated (any Actor)? = #isolation, facts: () -> MaintenancePlan.Facts,
        perform: (MaintenancePlan.Job) async -> Void
    ) async {
        while !isStopped && !Task.isCancelled {
            let due = plan.due(at: now(), facts())
            if !due.isEmpty {
                for job in due { await perform(job) }
                continue
            }
            let delay = plan.nextDeadline(facts()).map { $0.timeIntervalSince(now()) }
            let woken = await Self.wait(for: wakeUps, or: delay, on: sleeper, wakeUp: wakeUp)
            if !woken { break }
        }
    }

    private enum Waker {
        case wakeUp(ended: Bool)
        case clock
    }

    /// Races the next wake-up against the clock (`delay` seconds; nil: no deadline). False once
    /// the wake-ups ended (the loop's task was cancelled).
    ///
    /// The wake-up's waiter is never cancelled while the loop runs (that would end the stream):
    /// when the clock wins, it wakes the waiter through the stream; when a wake-up wins, only
    /// the clock is cancelled.
    private static func wait(
        for wakeUps: AsyncStream<Void>, or delay: TimeInterval?, on sleeper: any Sleeper,
        wakeUp: AsyncStream<Void>.Continuation
    ) async -> Bool {
        await withTaskGroup(of: Waker.self) { group in
            group.addTask {
                var iterator = wakeUps.makeAsyncIterator()
                return .wakeUp(ended: await iterator.next() == nil)
            }
            if let delay {
                group.addTask {
                    if (try? await sleeper.sleep(seconds: delay)) != nil { wakeUp.yield() }
                    return .clock
                }
            }
            var ended = false
            while let waker = await group.next() {
                if case .wakeUp(let streamEnded) = waker {
                    ended = streamEnded
                    group.cancelAll()
                }
            }
            return !ended
        }
    }
}

@available(*, unavailable)
extension MaintenanceScheduler: Sendable {}
