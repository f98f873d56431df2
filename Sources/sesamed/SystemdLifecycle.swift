import Foundation
import Logging
import NIOConcurrencyHelpers
import SesameCore
import SesameSystemd
import ServiceLifecycle

/// What systemd hears: READY=1 once the keyring is loaded and the socket bound, STATUS= in
/// words whenever the state changes, WATCHDOG=1 while running, STOPPING=1 when shutdown
/// begins. Silent off systemd.
final class SystemdLifecycle: Service, Sendable {
    private let notifier: SystemdNotifier
    private let logger: Logger
    private let lastState = NIOLockedValueBox<AuthState?>(nil)
    private let warned = NIOLockedValueBox(false)

    init(notifier: SystemdNotifier, logger: Logger) {
        self.notifier = notifier
        self.logger = logger
    }

    func ready(_ state: AuthState) {
        lastState.withLockedValue { $0 = state }
        send([.ready, .status(Self.describe(state, now: Date()))])
    }

    func stateChanged(_ state: AuthState) {
        lastState.withLockedValue { $0 = state }
        send([.status(Self.describe(state, now: Date()))])
    }

    func run() async throws {
        if let interval = notifier.watchdogInterval {
            await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    if Task.isCancelled { break }
                    var notifications: [SystemdNotification] = [.watchdog]
                    if let state = self.lastState.withLockedValue({ $0 }) {
                        notifications.append(.status(Self.describe(state, now: Date())))
                    }
                    self.send(notifications)
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        send([.stopping, .status("stopping")])
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

    /// The state as a person reads it, e.g. "anonymous, token valid for 54 min, online".
    static func describe(_ state: AuthState, now: Date) -> String {
        var parts: [String] = []
        switch state.status {
        case .starting: parts.append("starting")
        case .signedOut: parts.append("signed out")
        case .anonymous: parts.append("anonymous")
        case .authenticated: parts.append("signed in" + (state.user?.email.map { " as \($0)" } ?? ""))
        }
        if let expiry = state.tokenExpiresAt {
            let minutes = Int(expiry.timeIntervalSince(now) / 60)
            parts.append(minutes > 0 ? "token valid for \(minutes) min" : "token expired")
        }
        parts.append(state.connectivity.rawValue)
        if !state.pendingMerges.isEmpty { parts.append("\(state.pendingMerges.count) pending merge(s)") }
        return parts.joined(separator: ", ")
    }
}
