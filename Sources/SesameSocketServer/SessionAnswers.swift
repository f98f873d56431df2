import Foundation
import SesameCore
import SesameLocalAPI

/// The answers that only change with the session, serialised once per published state, when
/// first asked for (the token's once per token) and then sent to any number of requests with just the id spliced
/// in: `getState` always, `getIdToken` while the held token is fresh enough. Immutable, and a
/// class so that a request takes it from the hub with one reference count.
final class SessionAnswers: Sendable {
    /// The current user's uid; nil when signed out.
    let uid: String?
    /// The answer to `getState` for a manager.
    let state: SplicedResponse
    /// The answer to `getState` for a reader or an observer: the same, unless a device flow's
    /// code is open (``FlowVisibility``).
    let restrictedState: SplicedResponse
    /// The answer to `getIdToken` with the current user's held token; nil when none is held.
    let token: TokenAnswer?
    /// How far the calendar was ahead of the daemon's timeline for these answers' dates.
    let calendarOffset: TimeInterval

    /// A class: the fast path takes it with one reference count, not one per field.
    final class TokenAnswer: Sendable {
        /// The token the answer carries (to tell a new token from the same one), its dates on
        /// the daemon's steady timeline; the answer shows them on the calendar.
        let idToken: IDToken
        let calendarOffset: TimeInterval
        let uid: String
        let answer: SplicedResponse

        init(idToken: IDToken, calendarOffset: TimeInterval, uid: String, answer: SplicedResponse) {
            self.idToken = idToken
            self.calendarOffset = calendarOffset
            self.uid = uid
            self.answer = answer
        }

        /// Whether the token stays valid `minValidity` seconds after `now` (as the service decides).
        func isFresh(for minValidity: Double, at now: Date) -> Bool {
            idToken.isValid(for: idToken.boundedValidity(minValidity), at: now)
        }
    }

    /// The answers for `snapshot` (managers' with the open `accessRequests`); the token's is
    /// `previous` when the token, its user and the calendar offset did not change (no time is
    /// formatted again).
    init(
        snapshot: SubscriptionHub.Snapshot, accessRequests: [SesameAccessRequest] = [], reusing previous: TokenAnswer?
    ) {
        let uid = snapshot.state.user?.uid
        self.uid = uid
        calendarOffset = snapshot.calendarOffset
        state = .success(snapshot.wire(for: .manager, accessRequests: accessRequests).json)
        restrictedState =
            snapshot.state.carriesSignInCode || !accessRequests.isEmpty
            ? .success(snapshot.wire(for: .observer).json) : state
        guard let uid, let idToken = snapshot.token else {
            token = nil
            return
        }
        let offset = snapshot.calendarOffset
        if let kept = previous, kept.uid == uid, kept.idToken == idToken, kept.calendarOffset == offset {
            token = kept
        } else {
            token = TokenAnswer(
                idToken: idToken, calendarOffset: offset, uid: uid,
                answer: .success(LocalAPIDispatcher.tokenJSON(idToken.onCalendar(offset), uid: uid)))
        }
    }

    /// The answer to `getState` for `role`.
    func state(for role: LocalAPIRole) -> SplicedResponse { role.seesSignInCode ? state : restrictedState }
}
