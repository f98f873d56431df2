import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// `session.first_guest_window`: a fresh machine spreads its first sign-up over the window,
/// so a fleet imaged and started together does not meet the backend's per-address limit at once.
@Suite("the first guest of a fresh machine, spread over a window")
struct FirstGuestWindowTests {
    @Test("with a window, a fresh machine creates its first guest within it, not at once")
    func spreadOverTheWindow() async throws {
        let harness = ServiceHarness(configuration: SessionServiceConfiguration(firstGuestWindow: 600))
        try await harness.run { events in
            #expect(await harness.service.state.status == .signedOut)
            #expect(await harness.provider.count("signUp") == 0)
            harness.clock.advance(seconds: 600)
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            #expect(created.state.status == .anonymous)
            #expect(await harness.provider.count("signUp") == 1)
        }
    }

    @Test("within the window the machine is signed out: a token request says no-current-user, as before a first guest")
    func signedOutMeanwhile() async throws {
        let harness = ServiceHarness(configuration: SessionServiceConfiguration(firstGuestWindow: 600))
        try await harness.run { _ in
            await #expect(throws: AuthError(.noCurrentUser)) { _ = try await harness.service.tokens.idToken() }
            #expect(await harness.service.state.status == .signedOut)
        }
    }

    @Test("a machine with a keyring, and a window of 0, create their guest at once as before")
    func onlyAFreshMachineWaits() async throws {
        let harness = ServiceHarness(
            stored: PersistedState(), configuration: SessionServiceConfiguration(firstGuestWindow: 600))
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
        }
        let immediate = ServiceHarness(configuration: SessionServiceConfiguration(firstGuestWindow: 0))
        try await immediate.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
        }
    }
}
