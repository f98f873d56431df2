import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import SesameCore
import SesameService
import SesameSystemd

/// What systemd hears: READY=1 once the keyring is loaded and the socket bound, STATUS= in
/// words whenever the state changes, WATCHDOG=1 while running, STOPPING=1 when shutdown
/// begins, and nothing but WATCHDOG=1 after it. Silent off systemd.
///
/// STATUS= is world-readable (`systemctl status`), so it never holds personal data: the uid and
/// the state only, never an email or a name.
final class SystemdLifecycle: Service, Sendable {
    private let notifier: SystemdNotifier
    private let events: AsyncStream<SessionEvent>
    private let logger: Logger
    /// The loop whose timer pings the watchdog: the one that serves the socket.
    private let watchdogLoop: any EventLoop
    private let lastState = NIOLockedValueBox<AuthState?>(nil)
    private let warned = NIOLockedValueBox(false)
    /// Set when STOPPING=1 is sent; checked under the same lock as every STATUS= send.
    private let stopping = NIOLockedValueBox(false)

    /// - Parameter events: the session's events (``SessionService/events()``); READY=1 goes
    ///   out with the first (the snapshot) once ``run()`` starts, so after the socket is bound.
    ///   - watchdogLoop: the event loop that pings the watchdog (the socket server's).
    init(
        notifier: SystemdNotifier, events: AsyncStream<SessionEvent>, watchdogLoop: any EventLoop, logger: Logger
    ) {
        self.notifier = notifier
        self.watchdogLoop = watchdogLoop
        self.events = events
        self.logger = logger
    }

    func ready(_ state: AuthState) {
        lastState.withLockedValue { $0 = state }
        sendUnlessStopping([.ready, .status(Self.describe(state, now: Date()))])
    }

    func stateChanged(_ state: AuthState) {
        lastState.withLockedValue { $0 = state }
        sendUnlessStopping([.status(Self.describe(state, now: Date()))])
    }

    func run() async throws {
        await withDiscardingTaskGroup { group in
            let events = self.events
            group.addTask {
                var first = true
                for await event in events {
                    if first { self.ready(event.state) } else { self.stateChanged(event.state) }
                    first = false
                }
            }
            // The ping is a timer of the event loop itself: it proves the loop that serves
            // clients runs, and it wakes that one thread only (a task's sleep wakes the timer
            // thread and then a worker).
            let ping = notifier.watchdogInterval.map { interval in
                watchdogLoop.scheduleRepeatedTask(initialDelay: .init(interval), delay: .init(interval)) { _ in
                    self.pingWatchdog()
                }
            }
            try? await gracefulShutdown()
            ping?.cancel()
            stopping.withLockedValue { stopping in
                stopping = true
                send([.status("stopping"), .stopping])
            }
            group.cancelAll()
        }
    }

    /// WATCHDOG=1 with the current STATUS= (its "valid for" minutes move on).
    private func pingWatchdog() {
        var notifications: [SystemdNotification] = [.watchdog]
        if let state = lastState.withLockedValue({ $0 }) {
            notifications.append(.status(Self.describe(state, now: Date())))
        }
        sendUnlessStopping(notifications)
    }

    /// Sends unless STOPPING=1 went out already (atomically with respect to it).
    private func sendUnlessStopping(_ notifications: [SystemdNotification]) {
        stopping.withLockedValue { stopping in
            if !stopping { send(notifications) }
        }
    }

    private func send(_ notifications: [SystemdNotification]) {
        guard notifier.isEnabled else { return }
        do {
            try notifier.notify(notifications)
        } catch {
            let first = warned.withLockedValue { warned -> Bool in
                defer { warned = true }
                return !warned
            }
            if first { logger.warning("Cannot reach systemd's notify socket", metadata: ["error": "\(error)"]) }
        }
    }

    /// The state as a person reads it, without personal data, e.g. "authenticated uid
    /// 3fa85f64…, token valid for 54 min, online".
    static func describe(_ state: AuthState, now: Date) -> String {
        var parts: [String] = []
        let uid = state.user.map { " uid " + ($0.uid.count > 8 ? String($0.uid.prefix(8)) + "…" : $0.uid) } ?? ""
        switch state.status {
        case .starting: parts.append("starting")
        case .signedOut: parts.append("signed out")
        case .anonymous: parts.append("anonymous" + uid)
        case .authenticated: parts.append("authenticated" + uid)
        }
        if let expiry = state.tokenExpiresAt {
            parts.append(Self.validity(expiry.timeIntervalSince(now)))
        }
        parts.append(state.connectivity.rawValue)
        if !state.pendingMerges.isEmpty { parts.append("\(state.pendingMerges.count) pending merge(s)") }
        return parts.joined(separator: ", ")
    }

    /// "token valid for 54 min", "token valid for over a week", or "token expired": never
    /// traps, whatever the backend said the lifetime was.
    static func validity(_ seconds: TimeInterval) -> String {
        let minutes = seconds / 60
        guard minutes >= 1 else { return "token expired" }
        guard minutes <= 10_080 else { return "token valid for over a week" }
        return "token valid for \(Int(minutes)) min"
    }
}
