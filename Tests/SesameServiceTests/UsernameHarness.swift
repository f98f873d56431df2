import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting
import Testing

/// A service over the fake backend, a fake username directory and an in-memory store.
struct UsernameHarness {
    let clock: ManualClock
    let provider: FakeRemoteAuthProvider
    let directory: FakeUsernameDirectory
    let store: InMemorySessionStore
    let service: SessionService

    init(
        stored: PersistedState? = nil, clock: ManualClock = ManualClock(), provider: FakeRemoteAuthProvider? = nil,
        directory: FakeUsernameDirectory? = FakeUsernameDirectory(),
        configuration: SessionServiceConfiguration = .init()
    ) {
        self.clock = clock
        self.provider = provider ?? FakeRemoteAuthProvider(clock: clock)
        self.directory = directory ?? FakeUsernameDirectory()
        store = InMemorySessionStore(stored)
        service = SessionService(
            provider: self.provider, store: store, directory: directory == nil ? nil : self.directory, clock: clock,
            configuration: configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    func run(_ body: (inout AsyncStream<SessionEvent>.Iterator) async throws -> Void) async throws {
        try await runService(service, body)
    }

    /// Waits for the anonymous user, then links an email account to it.
    @discardableResult
    func signUp(
        _ events: inout AsyncStream<SessionEvent>.Iterator, email: String = "ann@example.com", username: String? = nil
    ) async throws -> AuthState {
        _ = try await next(&events) { $0.reason == .anonymousCreated }
        return try await service.accounts.createAccount(email: email, password: "secret1", username: username)
    }

    /// Advances the clock until `condition` holds (for retries planned on the clock).
    func advanceUntil(_ condition: () async -> Bool) async throws {
        try await eventually("a retry planned on the clock ran") {
            if await condition() { return true }
            clock.advance(seconds: 2)
            return false
        }
    }
}

func expectError(
    _ reason: AuthError.Reason, _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
)
    async
{
    do {
        try await body()
        Issue.record("no error; expected \(reason.rawValue)", sourceLocation: sourceLocation)
    } catch let error as AuthError {
        #expect(error.reason == reason, sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}
