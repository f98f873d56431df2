import Foundation

/// One item of the backend cleanup list as a pure step machine: events in, the next action out.
///
/// The list itself is durable (``PersistedState/pendingDeletions``,
/// ``PersistedState/pendingRevocations``); a job is not. After a crash at any step the item is
/// still listed and its job starts again from ``start(at:)``: every step is safe to repeat
/// (deleting an account that is gone already is `accountGone`, which confirms).
public struct CleanupJob: Sendable, Hashable {
    public enum Item: Sendable, Hashable {
        /// A given-up anonymous account to delete at the backend.
        case deleteAccount(Session)
        /// A left session to end at the backend (server-side sign-out).
        case revokeSession(Session)

        public var session: Session {
            switch self {
            case .deleteAccount(let session), .revokeSession(let session): session
            }
        }
    }

    /// Why an item leaves the list.
    public enum Outcome: String, Sendable, Hashable {
        case deleted
        /// The account was gone already.
        case alreadyGone
        /// The account is no longer anonymous at the backend (a link whose answer was lost made
        /// it permanent): it is kept.
        case noLongerAnonymous
        /// The backend cannot delete accounts here; its session was ended instead.
        case revokedInstead
        case revoked
        /// Already over, or impossible to end: nothing left to do.
        case nothingToEnd
    }

    public enum Action: Sendable, Hashable {
        /// Exchange the item's refresh token for a fresh ID token.
        case refresh
        case lookup(IDToken)
        case delete(IDToken)
        case revoke(IDToken)
        /// Remove the item from the durable list.
        case confirm(Outcome)
        /// Stop the cleanup run; retry the whole list after the backoff.
        case retryLater(RemoteAuthError)
    }

    public enum Event: Sendable, Hashable {
        case refreshed(IDToken)
        case lookedUp(isAnonymous: Bool)
        case deleted
        case revoked
        case failed(RemoteAuthError)
    }

    private enum Stage: Sendable, Hashable {
        case lookup, delete, revoke, revokeInstead
    }

    public let item: Item
    private var stage: Stage
    /// The stage's call was refused for its ID token once already (refresh once, then give up).
    private var refreshedAfterRejection = false
    private var refreshing = false
    private var token: IDToken

    public init(_ item: Item) {
        self.item = item
        self.token = item.session.idToken
        switch item {
        case .deleteAccount: stage = .lookup
        case .revokeSession: stage = .revoke
        }
    }

    /// The first action. A deletion first checks the account is still anonymous, with a token
    /// valid for another minute (refreshed first otherwise); a revocation just tries.
    public mutating func start(at now: Date) -> Action {
        switch item {
        case .deleteAccount:
            if !token.isValid(for: 60, at: now) {
                refreshing = true
                return .refresh
            }
            return .lookup(token)
        case .revokeSession:
            return .revoke(token)
        }
    }

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .refreshed(let fresh):
            refreshing = false
            token = fresh
            return call()
        case .lookedUp(let isAnonymous):
            guard isAnonymous else { return .confirm(.noLongerAnonymous) }
            stage = .delete
            refreshedAfterRejection = false
            return .delete(token)
        case .deleted:
            return .confirm(.deleted)
        case .revoked:
            return .confirm(stage == .revokeInstead ? .revokedInstead : .revoked)
        case .failed(let error):
            return failed(error)
        }
    }

    private func call() -> Action {
        switch stage {
        case .lookup: .lookup(token)
        case .delete: .delete(token)
        case .revoke, .revokeInstead: .revoke(token)
        }
    }

    private mutating func failed(_ error: RemoteAuthError) -> Action {
        if stage == .revokeInstead { return .confirm(.revokedInstead) }
        if error == .idTokenRejected, !refreshing, !refreshedAfterRejection {
            refreshedAfterRejection = true
            refreshing = true
            return .refresh
        }
        if case .unsupported = error, stage == .delete {
            stage = .revokeInstead
            return .revoke(token)
        }
        switch stage {
        case .lookup, .delete:
            if case .accountGone = error { return .confirm(.alreadyGone) }
            return .retryLater(error)
        case .revoke, .revokeInstead:
            return error.isTransient ? .retryLater(error) : .confirm(.nothingToEnd)
        }
    }
}
