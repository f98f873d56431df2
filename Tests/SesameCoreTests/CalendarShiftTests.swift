import Foundation
import SesameCore
import Testing

/// What is shown on the calendar (issue 36, item 4): the daemon's own stamps move with the
/// offset; dates a backend gave are the calendar's already and stay.
@Suite("onCalendar: the daemon's dates shown on the calendar")
struct CalendarShiftTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a state's token expiry, rate-limit retry and pending merges move by the offset; the user's dates do not")
    func state() {
        let user = User(uid: "u", isAnonymous: false, createdAt: t0, lastSignInAt: t0)
        let merge = Merge(mergeId: "m", fromUid: "g", toUid: "u", createdAt: t0)
        let state = AuthState(
            status: .authenticated, user: user, tokenExpiresAt: t0, connectivity: .rateLimited,
            needsUsername: false, pendingMerges: [merge], rateLimit: RateLimit(operation: "refresh", retryAt: t0))
        let shown = state.onCalendar(7200)
        #expect(shown.tokenExpiresAt == t0 + 7200)
        #expect(shown.rateLimit?.retryAt == t0 + 7200)
        #expect(shown.pendingMerges.map(\.createdAt) == [t0 + 7200])
        #expect(shown.user == user)
        #expect(state.onCalendar(0) == state)
    }

    @Test("a token's issue and expiry move together; its raw value and provider stay")
    func token() {
        let token = IDToken(rawValue: "t", expiresAt: t0 + 3600, issuedAt: t0, signInProvider: "anonymous")
        let shown = token.onCalendar(-86_400)
        #expect(shown.issuedAt == t0 - 86_400)
        #expect(shown.expiresAt == t0 + 3600 - 86_400)
        #expect(shown.rawValue == "t" && shown.signInProvider == "anonymous")
    }
}
