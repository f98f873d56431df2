import Foundation
import SesameCore

/// A change clients hear about, with the state after it and its place in the order of changes.
///
/// `sequence` starts at 1 when the service starts and grows by one with every event whose kind
/// ``Kind/advancesSequence`` is true; merge and shutdown events carry the current value.
public struct SessionEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The state when the stream was opened: always the first element of
        /// ``SessionService/events()``, never a notification.
        case snapshot
        case authStateChanged(previousUid: String?, reason: AuthChangeReason)
        case idTokenChanged(uid: String, expiresAt: Date)
        case userUpdated
        case connectivityChanged
        case mergeRecorded(Merge)
        case shutdown(reason: String)
        /// A sign-in flow started, changed status or ended (`state.signInPrompt` shows the open one).
        case signInFlowChanged(SignInFlow)

        public var advancesSequence: Bool {
            switch self {
            case .authStateChanged, .idTokenChanged, .userUpdated, .connectivityChanged, .signInFlowChanged: true
            case .snapshot, .mergeRecorded, .shutdown: false
            }
        }
    }

    public var kind: Kind
    /// The state after the change.
    public var state: AuthState
    public var sequence: Int64
    /// The current user's ID token after the change, so token requests can be answered without
    /// a trip through the session actor. Never part of any notification.
    public var currentToken: IDToken?
    /// How many events the service emitted up to and including this one (a snapshot carries
    /// the count at its time). ``SessionService/emittedEvents`` is the latest: a consumer that
    /// has seen an event with that index has seen everything a finished flow caused.
    public var index: Int64
    /// How far the calendar was ahead of the daemon's steady timeline when the event was made
    /// (``WallClock/calendarOffset``): `state` and `kind` show their dates on the calendar
    /// already; ``currentToken`` keeps the steady ones, for deciding its freshness, and
    /// shows them with `currentToken.onCalendar(calendarOffset)`.
    public var calendarOffset: TimeInterval

    public init(
        kind: Kind, state: AuthState, sequence: Int64, currentToken: IDToken? = nil, index: Int64 = 0,
        calendarOffset: TimeInterval = 0
    ) {
        self.kind = kind
        self.state = state
        self.sequence = sequence
        self.currentToken = currentToken
        self.index = index
        self.calendarOffset = calendarOffset
    }
}

extension SessionEvent.Kind {
    /// The kind with the dates the daemon stamped as the calendar reads them.
    func onCalendar(_ offset: TimeInterval) -> SessionEvent.Kind {
        switch self {
        case .idTokenChanged(let uid, let expiresAt):
            return .idTokenChanged(uid: uid, expiresAt: expiresAt + offset)
        case .signInFlowChanged(let flow):
            return .signInFlowChanged(flow.onCalendar(offset))
        case .mergeRecorded(let merge):
            return .mergeRecorded(merge.onCalendar(offset))
        default:
            return self
        }
    }
}
