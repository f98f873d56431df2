import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Issue 36, item 4, honest about time: the service's clock is steady (the daemon's is a
/// ``SteadyClock``; the manual clock's calendar jumps without moving `date`). A jump neither
/// expires a valid token early nor keeps an expired one; what clients see is on the calendar.
@Suite("Session service: the calendar jumps")
struct CalendarJumpServiceTests {
    @Test(
        "2 h ahead right after sign-in: the same token, no refresh, its expiry shown 2 h later, the refresh still planned by its lifetime"
    )
    func forward() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.isIdTokenChanged }
            let first = try await harness.service.tokens.idToken().idToken
            let planned = try #require(await harness.service.nextPlannedWork)

            harness.clock.jumpCalendar(seconds: 7200)
            let after = try await harness.service.tokens.idToken(minValidity: 3000).idToken
            #expect(after == first)
            #expect(await harness.provider.count("refresh") == 0)
            #expect(await harness.service.nextPlannedWork == planned)
            #expect(await harness.service.state.tokenExpiresAt == first.expiresAt.addingTimeInterval(7200))

            // Subscribers are told the expiry as the calendar now reads it, once.
            await harness.service.calendarChanged()
            let told = try await next(&events) { $0.isIdTokenChanged }
            guard case .idTokenChanged(_, let expiresAt) = told.kind else { throw TimedOut() }
            #expect(expiresAt == first.expiresAt.addingTimeInterval(7200))
            #expect(told.state.tokenExpiresAt == expiresAt)
            #expect(told.calendarOffset == 7200)
            #expect(told.currentToken == first)
            let emitted = await harness.service.emittedEvents
            await harness.service.calendarChanged()
            #expect(await harness.service.emittedEvents == emitted)
        }
    }

    @Test("a day back with the backend down: the token stops being served when its lifetime ends, not a day later")
    func backward() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.isIdTokenChanged }
            let first = try await harness.service.tokens.idToken().idToken
            harness.clock.jumpCalendar(seconds: -86_400)
            #expect(await harness.service.state.tokenExpiresAt == first.expiresAt.addingTimeInterval(-86_400))
            await harness.provider.setOffline(true)
            harness.clock.suspend(seconds: 3599)
            #expect(try await harness.service.tokens.idToken(minValidity: 0).idToken == first)
            harness.clock.suspend(seconds: 2)
            await #expect(throws: AuthError.self) { try await harness.service.tokens.idToken(minValidity: 0) }
        }
    }

    @Test(
        "a stored token issued a day after now (the calendar went back across a restart): refreshed at start, never served"
    )
    func storedFromTheFuture() async throws {
        let harness = ServiceHarness()
        let signUp = try await harness.provider.signUpAnonymously()
        let day: TimeInterval = 86_400
        let token = IDToken(
            rawValue: signUp.idToken.rawValue, expiresAt: signUp.idToken.expiresAt.addingTimeInterval(day),
            issuedAt: signUp.idToken.issuedAt.addingTimeInterval(day), signInProvider: "anonymous")
        let session = Session(
            user: User(uid: signUp.uid, isAnonymous: true), idToken: token, refreshToken: signUp.refreshToken)
        try await harness.store.save(PersistedState(session: session))
        try await harness.run { events in
            let refreshed = try await next(&events) { $0.isIdTokenChanged }
            #expect(await harness.provider.count("refresh") == 1)
            let served = try await harness.service.tokens.idToken().idToken
            #expect(served != token)
            #expect(served == refreshed.currentToken)
            #expect(served.issuedAt == harness.clock.date)
        }
    }
}
