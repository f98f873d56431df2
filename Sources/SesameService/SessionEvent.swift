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

    public init(kind: Kind, state: AuthState, sequence: Int64, currentToken: IDToken? = nil, index: Int64 = 0) {
        self.kind = kind
        self.state = state
        self.sequence = sequence
        self.currentToken = currentToken
        self.index = index
    }
}
