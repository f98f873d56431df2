import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting

/// A service over the fake backend and an in-memory store, with its maintenance loop running.
struct ServiceHarness {
    let clock = ManualClock()
    let provider: FakeRemoteAuthProvider
    let store: InMemorySessionStore
    let service: SessionService

    init(stored: PersistedState? = nil, configuration: SessionServiceConfiguration = .init(), sendsCodes: Bool = false)
    {
        provider = FakeRemoteAuthProvider(clock: clock, sendsCodes: sendsCodes)
        store = InMemorySessionStore(stored)
        service = SessionService(
            provider: provider, store: store, clock: clock, configuration: configuration,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Starts the service and its loop, runs `body`, then stops the loop.
    func run(_ body: (inout AsyncStream<SessionEvent>.Iterator) async throws -> Void) async throws {
        try await runService(service, body)
    }
}

struct TimedOut: Error {}

/// The next event that matches, failing after a few seconds of real time instead of hanging.
func next(
    _ events: inout AsyncStream<SessionEvent>.Iterator, where match: @Sendable (SessionEvent) -> Bool
) async throws -> SessionEvent {
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        guard let event = await events.next() else { throw TimedOut() }
        if match(event) { return event }
    }
    throw TimedOut()
}

extension SessionEvent {
    var reason: AuthChangeReason? {
        if case .authStateChanged(_, let reason) = kind { return reason }
        return nil
    }
    var isIdTokenChanged: Bool {
        if case .idTokenChanged = kind { return true }
        return false
    }
    var isConnectivityChanged: Bool {
        if case .connectivityChanged = kind { return true }
        return false
    }
}
