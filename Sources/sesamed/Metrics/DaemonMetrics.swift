import Foundation
import Prometheus
import SesameCore
import SesameService

/// The daemon's counters and gauges (`[metrics]`, docs/systemd.md's "Metrics"), in one
/// Prometheus registry of its own (no global metrics system is bootstrapped).
///
/// Three parts of the daemon feed it: ``MeteredTransport`` (every backend request, by operation
/// and outcome), the socket server (open connections) and the session's events (status,
/// connectivity, token times, pending merges, why a session changed). Every update also tells
/// ``changes``, so ``MetricsTextfile`` rewrites its file after a change and never on a timer.
final class DaemonMetrics: Sendable {
    /// What became of one backend request.
    enum Outcome: String, Sendable, CaseIterable {
        case ok
        case rateLimited = "rate_limited"
        /// Another 4xx: the backend refused the request itself (wrong password, revoked token).
        case refused
        /// A 5xx, or an answer that was not HTTP at all.
        case serverError = "server_error"
        /// No answer: the connection failed or timed out.
        case transportError = "transport_error"

        init(status: Int) {
            switch status {
            case 200..<400: self = .ok
            case 429: self = .rateLimited
            case 400..<500: self = .refused
            default: self = .serverError
            }
        }
    }

    let registry = PrometheusCollectorRegistry()
    /// One element after any update (older ones are dropped: a write covers them all).
    let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation
    private let connections: Gauge
    private let mergesPending: Gauge
    private let tokenIssued: Gauge
    private let tokenExpires: Gauge

    init() {
        (changes, changed) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        connections = registry.makeGauge(name: "sesame_connections", help: "Open local API connections.")
        mergesPending = registry.makeGauge(
            name: "sesame_merges_pending", help: "Merges recorded and not yet acknowledged by a migrator.")
        tokenIssued = registry.makeGauge(
            name: "sesame_token_issued_timestamp_seconds",
            help: "When the held ID token was issued (Unix time; 0: none). Its age: time() minus this.")
        tokenExpires = registry.makeGauge(
            name: "sesame_token_expiry_timestamp_seconds", help: "When the held ID token expires (Unix time; 0: none).")
        for outcome in Outcome.allCases {
            _ = requests(operation: BackendOperation.refresh, outcome: outcome)
        }
        observe(
            AuthState(
                status: .starting, user: nil, tokenExpiresAt: nil, connectivity: .online, needsUsername: false,
                pendingMerges: []))
    }

    /// Records one backend request of `operation` (a method of the local API, `refresh`, or a
    /// maintenance job's method; `other` outside any).
    func recordBackendRequest(operation: String?, outcome: Outcome) {
        requests(operation: operation ?? "other", outcome: outcome).increment()
        changed.yield()
    }

    /// Records the number of open connections.
    func recordConnections(_ count: Int) {
        connections.set(Int64(count))
        changed.yield()
    }

    /// Records what one session event says.
    func observe(_ event: SessionEvent) {
        if case .authStateChanged(_, let reason) = event.kind {
            registry.makeCounter(
                name: "sesame_session_changes_total", labels: [("reason", reason.rawValue)],
                help:
                    "Changes of the signed-in user, by the reason authStateChanged gave (session-revoked: the backend ended it)."
            ).increment()
        }
        observe(event.state)
        // On the calendar, as Prometheus's `time()` reads it.
        let token = event.currentToken?.onCalendar(event.calendarOffset)
        tokenIssued.set(token.map { $0.issuedAt.timeIntervalSince1970 } ?? 0)
        tokenExpires.set(token.map { $0.expiresAt.timeIntervalSince1970 } ?? 0)
        changed.yield()
    }

    /// The text node_exporter's textfile collector reads.
    func render() -> [UInt8] { registry.emitToBuffer() }

    private func observe(_ state: AuthState) {
        mergesPending.set(Int64(state.pendingMerges.count))
        let statuses: [(AuthStatus, String)] = [
            (.starting, "starting"), (.signedOut, "signed-out"), (.anonymous, "anonymous"),
            (.authenticated, "authenticated"),
        ]
        for (status, label) in statuses {
            oneHot(
                "sesame_session_status", label: "status", value: label, on: state.status == status,
                help: "1 for the session's status (State.status), 0 for the others.")
        }
        for connectivity in [Connectivity.online, .offline, .rateLimited] {
            oneHot(
                "sesame_connectivity", label: "state", value: connectivity.rawValue,
                on: state.connectivity == connectivity,
                help: "1 for how the backend answers now (online, offline, rate-limited).")
        }
    }

    private func oneHot(_ name: String, label: String, value: String, on: Bool, help: String) {
        registry.makeGauge(name: name, labels: [(label, value)], help: help).set(on ? 1.0 : 0.0)
    }

    private func requests(operation: String, outcome: Outcome) -> Counter {
        registry.makeCounter(
            name: "sesame_backend_requests_total", labels: [("operation", operation), ("outcome", outcome.rawValue)],
            help:
                "Requests to the backend, by operation (a local API method, refresh, or a job) and outcome (rate_limited: a 429)."
        )
    }
}
