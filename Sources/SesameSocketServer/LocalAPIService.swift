import Foundation
import SesameLocalAPI
import SesameService

/// What the socket server asks of the session service behind it: its events, its clock and the
/// calls the event loop does not answer. ``SessionCalls`` is the daemon's; the connection's own
/// tests put a stub here, so the handler, the dispatcher's planning and the hub run as they do
/// in the daemon while the test decides what the service answers and when.
protocol LocalAPIService: Sendable {
    /// The backend's name, for `hello`.
    var backendName: String { get }
    /// The service's clock: the one "now" for token freshness, here and in the service.
    var now: @Sendable () -> Date { get }
    /// How far the calendar is ahead of ``now`` (``SessionService/calendarOffset``): the dates
    /// the daemon stamped are shown with this added.
    var calendarOffset: @Sendable () -> TimeInterval { get }
    /// Hands every event to `sink`, the current state first, in the order they happen (see
    /// ``SessionService/publish(to:)``).
    func publish(to sink: @escaping @Sendable (SessionEvent) -> Void) async
    /// Tells subscribers the daemon is stopping (once): a `shutdown` event.
    func announceShutdown(reason: String) async
    /// Runs a call that needs the session service and returns its answer. The notifications
    /// the call caused are published before it returns, so they go out before the answer.
    func execute(_ call: LocalAPICall, method: LocalAPIMethod) async -> SplicedResponse
}
