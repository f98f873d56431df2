import Foundation
import SesameClient

/// How `sesamectl watch` shows a notification to a person: one line each. Pure.
enum NotificationRenderer {
    /// The line for `notification`, or nil when `json` is set and it is a local event (raw
    /// mode prints only the daemon's lines).
    /// A person's line has its control characters made visible (`TerminalText`).
    static func line(for notification: SesameNotification, json: Bool) -> String? {
        if json { return notification.jsonLine }
        return humanLine(for: notification).map(TerminalText.sanitized)
    }

    private static func humanLine(for notification: SesameNotification) -> String? {
        let sequence = notification.sequence.map { "#\($0) " } ?? ""
        switch notification.event {
        case .authStateChanged(let state, let previousUid, let reason):
            let was = previousUid.map { ", was \($0)" } ?? ""
            return "\(sequence)authStateChanged \(reason): \(StatusRenderer.oneLine(state))\(was)"
        case .idTokenChanged(let change):
            return
                "\(sequence)idTokenChanged: new token for \(change.uid), expires \(StatusRenderer.timeWords(change.expiresAt))"
        case .userUpdated(let state):
            let waiting = state.secondFactor.map { "; \(SecondFactorText.challengeWords($0))" } ?? ""
            return "\(sequence)userUpdated: \(StatusRenderer.oneLine(state))\(waiting)"
        case .connectivityChanged(let connectivity):
            return "\(sequence)connectivityChanged: \(connectivity)"
        case .accountMerge(let merge):
            return "\(sequence)accountMerge \(merge.mergeId): \(merge.fromUid) -> \(merge.toUid)"
        case .shutdown(let reason):
            return "\(sequence)shutdown: sesamed is stopping (\(reason.isEmpty ? "no reason given" : reason))"
        case .signInFlowChanged(let flow, _):
            let code = flow.userCode.map { ", code \($0)" } ?? ""
            return "\(sequence)signInFlowChanged \(flow.flowId): \(flow.providerId) \(flow.flow) \(flow.status)\(code)"
        case .accessRequestsChanged(let requests):
            let open = requests.map(AccessText.request).joined(separator: "; ")
            return "\(sequence)accessRequestsChanged: \(requests.isEmpty ? "no request open" : open)"
        case .connectionLost(.connectionClosed):
            return "sesamed closed the connection; reconnecting"
        case .connectionLost(let error):
            return "connection lost (\(error)); reconnecting"
        case .connected(let hello):
            return
                "connected to \(hello.server) \(hello.version) (instance \(hello.instance), role \(hello.role.rawValue))"
        }
    }

    /// The state line `watch` prints on (re)connecting: the state the subscription starts
    /// from. Nil for other events.
    static func stateLine(for notification: SesameNotification) -> String? {
        guard case .connected = notification.event, let state = notification.state else { return nil }
        return TerminalText.sanitized("state: " + StatusRenderer.oneLine(state))
    }
}
