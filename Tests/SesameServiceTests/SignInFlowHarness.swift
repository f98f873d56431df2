import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting
import Testing

/// A service over the fake backend and fake identity providers, without the maintenance loop:
/// the only tasks asleep on the clock are the sign-in flows' (poll loop, expiry, `awaitSignIn`
/// timers; the service's child tasks run by `runChildTasks`), so a test moves time exactly when
/// they wait.
struct SignInFlowHarness {
    let clock = ManualClock()
    let provider: FakeRemoteAuthProvider
    let devices: FakeDeviceAuthorizationClient
    let store: InMemorySessionStore
    let service: SessionService

    /// - Parameters:
    ///   - federatedNeedsIDToken: the backend takes ID tokens only (as Supabase).
    ///   - configured: whether any device-flow provider is configured.
    init(
        federatedNeedsIDToken: Bool = false, configured: Bool = true, expiresIn: TimeInterval = 600,
        store: InMemorySessionStore = InMemorySessionStore(),
        logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        provider = FakeRemoteAuthProvider(clock: clock, federatedNeedsIDToken: federatedNeedsIDToken)
        devices = FakeDeviceAuthorizationClient(clock: clock, expiresIn: expiresIn)
        self.store = store
        service = SessionService(
            provider: provider, store: store, deviceAuthorization: configured ? devices : nil, clock: clock,
            configuration: SessionServiceConfiguration(anonymousFirst: false), logger: logger)
    }

    /// Starts the service, optionally with a guest, runs `body` with its events (from just
    /// after the start), then shuts it down.
    func run(
        guest: Bool = true, _ body: (inout AsyncStream<SessionEvent>.Iterator) async throws -> Void
    ) async throws {
        try await service.start()
        let service = self.service
        let children = Task { await service.runChildTasks() }
        defer { children.cancel() }
        if guest { _ = try await service.accounts.signInAnonymously() }
        var events = await service.events().makeAsyncIterator()
        _ = await events.next()
        do {
            try await body(&events)
        } catch {
            await service.shutdown()
            throw error
        }
        await service.shutdown()
        await children.value
    }

    /// Moves the clock by `seconds` once `sleepers` tasks wait on it (the poll loop first).
    func advance(_ seconds: Int, sleepers: Int = 1) async throws {
        try await eventually("\(sleepers) tasks asleep on the clock") { clock.sleeperCount >= sleepers }
        clock.advance(by: .seconds(seconds))
    }

    /// Moves the clock a second at a time until `condition` holds (for jittered backoff), each
    /// time once `sleepers` tasks wait on it.
    func advance(sleepers: Int = 1, until condition: () async throws -> Bool) async throws {
        for _ in 0..<900 {
            var done = false
            try await eventually("the condition, or a task asleep on the clock") {
                done = try await condition()
                return done || clock.sleeperCount >= sleepers
            }
            if done { return }
            clock.advance(by: .seconds(1))
        }
        throw TimedOut()
    }

    func device(_ providerId: String = "google.com", purpose: SignInFlow.Purpose = .signIn) -> SignInFlowRequest {
        SignInFlowRequest(providerId: providerId, kind: .device, purpose: purpose)
    }

    /// Waits for the flow in a task of its own: its outcome or its error.
    func waiter(
        _ flowId: String, timeout: TimeInterval = 300
    ) -> Task<Result<SessionService.SignInOutcome, AuthError>, Never> {
        let service = self.service
        return Task {
            do throws(AuthError) {
                return .success(try await service.signIn.wait(flowId: flowId, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
    }

    static let redirect = "http://127.0.0.1:4711/callback"

    func browser(_ providerId: String = "google.com") -> SignInFlowRequest {
        SignInFlowRequest(providerId: providerId, kind: .browser, redirectUri: Self.redirect)
    }

    /// The callback the browser brings back for the last browser flow.
    func callback(identity: String, state: String? = nil) async throws -> String {
        let start = try #require(await provider.lastBrowserStart)
        return "\(Self.redirect)?code=\(identity)&state=\(state ?? start.state)"
    }
}

extension SessionEvent {
    /// The flow of a `signInFlowChanged`.
    var flow: SignInFlow? {
        if case .signInFlowChanged(let flow) = kind { return flow }
        return nil
    }
}

/// The events up to and including the first that matches.
func collect(
    _ events: inout AsyncStream<SessionEvent>.Iterator, until match: @Sendable (SessionEvent) -> Bool
) async throws -> [SessionEvent] {
    var seen: [SessionEvent] = []
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        guard let event = await events.next() else { throw TimedOut() }
        seen.append(event)
        if match(event) { return seen }
    }
    throw TimedOut()
}

extension Result where Failure == AuthError {
    /// The reason of the error; nil for a success.
    var reason: AuthError.Reason? {
        if case .failure(let error) = self { return error.reason }
        return nil
    }
}
