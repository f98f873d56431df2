import Foundation

/// The session as a pure value: events in, actions out. It performs no I/O.
///
/// The driver (`SessionService`) calls the backend and the store, feeds the outcomes in as
/// ``Event``s and performs the returned ``Action``s in order. Actions always put `.persist`
/// before any notification, so the keyring holds a change before any client hears of it.
///
/// `status` is derived from the facts (`session`, `loaded`), never set on its own.
public struct SessionMachine: Sendable, Hashable {
    /// Whether a new anonymous user is created whenever there is no user.
    public let anonymousFirst: Bool
    /// What the keyring holds.
    public private(set) var persisted: PersistedState
    /// The result of the last backend call.
    public private(set) var connectivity: Connectivity
    /// The limit the backend reported, while `connectivity` is `rateLimited`.
    public private(set) var rateLimit: RateLimit?
    private var loaded: Bool

    public init(anonymousFirst: Bool = true) {
        self.anonymousFirst = anonymousFirst
        self.persisted = PersistedState()
        self.connectivity = .online
        self.loaded = false
    }

    public var session: Session? { persisted.session }

    public var status: AuthStatus {
        guard loaded else { return .starting }
        guard let session = persisted.session else { return .signedOut }
        return session.user.isAnonymous ? .anonymous : .authenticated
    }

    /// Something that happened, reported by the driver.
    public enum Event: Sendable, Hashable {
        /// The keyring was read; nil when there was none.
        case loaded(PersistedState?)
        /// A different user is now signed in: `anonymousCreated`, `signedUp` or `signedIn`.
        case signedIn(Session, reason: AuthChangeReason)
        /// The anonymous user became a permanent account (uid kept).
        case linked(Session)
        /// From an anonymous user, signed in to an existing account; the merge is recorded in
        /// the same write as the switch.
        case merged(Session, PendingMerge)
        /// The current user's tokens or profile changed without an auth change.
        case updated(Session)
        /// The backend refused the refresh token: the session is over.
        case sessionRevoked
        /// The backend refused the refresh token because the account's password or email
        /// address changed: the session is over, and the person signs in with the new one.
        case credentialsChanged
        /// The person signed out of an account.
        case signedOut
        /// The person reset an anonymous user (its account is to be deleted).
        case reset
        /// The current account was deleted at the backend.
        case accountDeleted
        /// A merge was completed (by a migrator or by the hold timer).
        case mergeCompleted(mergeId: String)
        /// The guest tokens of a pending merge were refreshed.
        case mergeGuestUpdated(PendingMerge)
        /// The backend confirmed the deletion of a given-up anonymous account.
        case deletionConfirmed(uid: String)
        /// The backend ended a left session (the one holding this refresh token).
        case revocationConfirmed(RefreshToken)
        /// `sendSignInLink` succeeded for `email`; nil forgets it.
        case emailLinkAddressChanged(String?)
        /// The username directory steps still to finish changed.
        case usernameStepsChanged([UsernameStep])
        /// The address change remembered for `uid` changed (nil: forgotten).
        case pendingEmailChanged(uid: String, email: String?)
        /// A backend call succeeded.
        case backendReached
        /// A backend call failed for a transport reason or a 5xx.
        case backendUnreachable
        /// The backend refused a call for a rate limit.
        case backendRateLimited(RateLimit)
    }

    /// Something the driver must do, in the order given.
    public enum Action: Sendable, Hashable {
        /// Write `persisted` to the store.
        case persist
        case notifyAuthStateChanged(reason: AuthChangeReason, previousUid: String?)
        case notifyIdTokenChanged
        case notifyUserUpdated
        case notifyConnectivityChanged
        /// Tell migrators about a newly recorded merge.
        case notifyMergeRecorded(Merge)
        /// Create a new anonymous user (retrying with backoff while offline).
        case signInAnonymously
        /// Do the backend cleanup: delete the accounts in `persisted.pendingDeletions` and end
        /// the sessions in `persisted.pendingRevocations`.
        case processDeletions
        /// (Re)plan the token refresh for the current session, or stop it when there is none.
        case rescheduleRefresh
    }

    /// Applies an event and returns what the driver must do.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .loaded(let stored):
            precondition(!loaded, "SessionMachine: loaded twice")
            loaded = true
            persisted = stored ?? PersistedState()
            var actions: [Action] = [.rescheduleRefresh]
            if persisted.hasPendingCleanup { actions.append(.processDeletions) }
            if persisted.session == nil && anonymousFirst { actions.append(.signInAnonymously) }
            return actions

        case .signedIn(let session, let reason):
            let old = persisted.session
            persisted.session = session
            var actions: [Action] = [
                .persist, .notifyAuthStateChanged(reason: reason, previousUid: old?.uid),
                .notifyIdTokenChanged, .rescheduleRefresh,
            ]
            if let old, !old.user.isAnonymous, old.uid != session.uid {
                // Switched away from an account: end its session at the backend too.
                persisted.pendingRevocations.append(old)
                actions.append(.processDeletions)
            }
            return actions

        case .linked(let session):
            precondition(persisted.session?.uid == session.uid, "SessionMachine: linked a different uid")
            let previous = persisted.session?.uid
            persisted.session = session
            return [
                .persist, .notifyAuthStateChanged(reason: .linked, previousUid: previous),
                .notifyIdTokenChanged, .rescheduleRefresh,
            ]

        case .merged(let session, let pending):
            let previous = persisted.session?.uid
            persisted.session = session
            persisted.pendingMerges.append(pending)
            return [
                .persist, .notifyAuthStateChanged(reason: .merged, previousUid: previous),
                .notifyIdTokenChanged, .notifyMergeRecorded(pending.merge), .rescheduleRefresh,
            ]

        case .updated(let session):
            guard let old = persisted.session, old.uid == session.uid else { return [] }
            if old == session { return [] }
            persisted.session = session
            var actions: [Action] = [.persist]
            if old.user.isAnonymous != session.user.isAnonymous {
                actions.append(.notifyAuthStateChanged(reason: .linked, previousUid: old.uid))
                actions.append(.notifyIdTokenChanged)
                actions.append(.rescheduleRefresh)
                return actions
            }
            if old.user != session.user { actions.append(.notifyUserUpdated) }
            if old.idToken != session.idToken {
                actions.append(.notifyIdTokenChanged)
                actions.append(.rescheduleRefresh)
            }
            return actions

        case .sessionRevoked, .credentialsChanged:
            guard let old = persisted.session else { return [] }
            persisted.session = nil
            let reason: AuthChangeReason = event == .credentialsChanged ? .credentialsChanged : .sessionRevoked
            return endOfSession(reason: reason, previousUid: old.uid)

        case .signedOut:
            guard let old = persisted.session else { return [] }
            persisted.session = nil
            persisted.pendingRevocations.append(old)
            var actions = endOfSession(reason: .signedOut, previousUid: old.uid)
            actions.append(.processDeletions)
            return actions

        case .reset:
            guard let old = persisted.session else { return [] }
            persisted.session = nil
            persisted.pendingDeletions.append(old)
            var actions = endOfSession(reason: .reset, previousUid: old.uid)
            actions.append(.processDeletions)
            return actions

        case .accountDeleted:
            guard let old = persisted.session else { return [] }
            persisted.session = nil
            return endOfSession(reason: .accountDeleted, previousUid: old.uid)

        case .mergeCompleted(let mergeId):
            guard let index = persisted.pendingMerges.firstIndex(where: { $0.merge.mergeId == mergeId }) else {
                return []
            }
            let pending = persisted.pendingMerges.remove(at: index)
            persisted.pendingDeletions.append(pending.guest)
            return [.persist, .notifyUserUpdated, .processDeletions]

        case .mergeGuestUpdated(let pending):
            guard let index = persisted.pendingMerges.firstIndex(where: { $0.merge.mergeId == pending.merge.mergeId }),
                persisted.pendingMerges[index] != pending
            else { return [] }
            persisted.pendingMerges[index] = pending
            return [.persist]

        case .deletionConfirmed(let uid):
            let before = persisted.pendingDeletions.count
            persisted.pendingDeletions.removeAll { $0.uid == uid }
            return persisted.pendingDeletions.count == before ? [] : [.persist]

        case .revocationConfirmed(let refreshToken):
            let before = persisted.pendingRevocations.count
            persisted.pendingRevocations.removeAll { $0.refreshToken == refreshToken }
            return persisted.pendingRevocations.count == before ? [] : [.persist]

        case .emailLinkAddressChanged(let email):
            guard persisted.emailLinkAddress != email else { return [] }
            persisted.emailLinkAddress = email
            return [.persist]

        case .pendingEmailChanged(let uid, let email):
            guard persisted.pendingEmails[uid] != email else { return [] }
            persisted.pendingEmails[uid] = email
            return [.persist]

        case .usernameStepsChanged(let steps):
            guard persisted.pendingUsernameSteps != steps else { return [] }
            persisted.pendingUsernameSteps = steps
            return [.persist]

        case .backendReached:
            return connect(.online, rateLimit: nil)

        case .backendUnreachable:
            return connect(.offline, rateLimit: nil)

        case .backendRateLimited(let limit):
            return connect(.rateLimited, rateLimit: limit)
        }
    }

    /// Records the outcome of a backend call; a change of either is told once.
    private mutating func connect(_ next: Connectivity, rateLimit limit: RateLimit?) -> [Action] {
        guard connectivity != next || rateLimit != limit else { return [] }
        connectivity = next
        rateLimit = limit
        return [.notifyConnectivityChanged]
    }

    private func endOfSession(reason: AuthChangeReason, previousUid: String) -> [Action] {
        var actions: [Action] = [
            .persist, .notifyAuthStateChanged(reason: reason, previousUid: previousUid),
            .rescheduleRefresh,
        ]
        if anonymousFirst { actions.append(.signInAnonymously) }
        return actions
    }
}
