import Foundation
import SesameCore

/// A change clients hear about, with the state after it and its place in the order of changes.
///
/// `sequence` starts at 1 when the service starts and grows by one with every event whose kind
/// ``Kind/advancesSequence`` is true; merge and shutdown events carry the current value.
public struct SessionEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case authStateChanged(previousUid: String?, reason: AuthChangeReason)
        case idTokenChanged(uid: String, expiresAt: Date)
        case userUpdated
        case connectivityChanged
        case mergeRecorded(Merge)
        case shutdown(reason: String)

        public var advancesSequence: Bool {
            switch self {
            case .authStateChanged, .idTokenChanged, .userUpdated, .connectivityChanged: true
            case .mergeRecorded, .shutdown: false
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

    public init(kind: Kind, state: AuthState, sequence: Int64, currentToken: IDToken? = nil) {
        self.kind = kind
        self.state = state
        self.sequence = sequence
        self.currentToken = currentToken
    }
}

/// Receives every event, synchronously and in order, on the service's actor. It must not
/// block: hand the event on (for example to a NIO event loop) and return.
public typealias SessionEventSink = @Sendable (SessionEvent) -> Void
