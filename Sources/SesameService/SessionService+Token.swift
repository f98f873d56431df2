import Foundation
import Logging
import SesameCore

extension SessionService {
    /// An ID token for a caller, with the uid it belongs to.
    public struct IssuedToken: Sendable, Hashable {
        public var idToken: IDToken
        public var uid: String
    }

    /// Returns an ID token valid for at least `minValidity` seconds, refreshing when needed.
    /// `minValidity` is bounded by what a fresh token can give (``IDToken/boundedValidity(_:)``:
    /// the token's lifetime less a minute), so a larger one cannot make every call a refresh.
    ///
    /// Concurrent callers share one backend refresh, forced or not. While the backend cannot
    /// be reached, a still-valid token is returned even when it is valid for less than
    /// `minValidity`; an expired one, or `forceRefresh`, is a backend error.
    /// - Parameter uid: the `fromUid` of a pending merge, to read the guest's data; nil or the
    ///   current uid for the current user.
    public func idToken(
        minValidity: TimeInterval = 300, forceRefresh: Bool = false, uid: String? = nil
    ) async throws(AuthError) -> IssuedToken {
        if let uid, uid != machine.session?.uid {
            return try await guestToken(uid: uid, minValidity: minValidity, forceRefresh: forceRefresh)
        }
        guard let session = machine.session else { throw AuthError(.noCurrentUser) }
        if !forceRefresh && session.idToken.isValid(for: session.idToken.boundedValidity(minValidity), at: now()) {
            return IssuedToken(idToken: session.idToken, uid: session.uid)
        }
        do throws(RemoteAuthError) {
            let refreshed = try await refreshCurrentSession()
            return IssuedToken(idToken: refreshed.idToken, uid: refreshed.uid)
        } catch {
            if error.isTransient, !forceRefresh, let current = machine.session, current.uid == session.uid,
                current.idToken.remainingValidity(at: now()) > 0
            {
                return IssuedToken(idToken: current.idToken, uid: current.uid)
            }
            throw endOfSessionError(error, uid: session.uid)
        }
    }

    /// Refreshes the current session's tokens; concurrent callers share one backend call
    /// (``SingleFlight``): one that arrives while a refresh runs gets that refresh's outcome.
    /// - Parameter knownCause: why the backend may refuse it, when the daemon knows (it has
    ///   just changed the account's password): a refusal then ends the session with that cause.
    func refreshCurrentSession(knownCause: AuthChangeReason? = nil) async throws(RemoteAuthError) -> Session {
        let session = machine.session
        return try await refresh.run { () async throws(RemoteAuthError) -> Session in
            guard let session else { throw .rejected(AuthError(.noCurrentUser)) }
            return try await self.performRefresh(of: session, knownCause: knownCause)
        }
    }

    private func performRefresh(
        of session: Session, knownCause: AuthChangeReason?
    ) async throws(RemoteAuthError) -> Session {
        let provider = self.provider
        do throws(RemoteAuthError) {
            let grant = try await call { () async throws(RemoteAuthError) in
                try await provider.refresh(session.refreshToken)
            }
            guard var current = machine.session, current.uid == session.uid else {
                // Signed out or switched users meanwhile: these tokens belong to nobody now.
                throw RemoteAuthError.rejected(AuthError(.noCurrentUser))
            }
            guard current.refreshToken == session.refreshToken else {
                // A flow adopted newer tokens meanwhile; they win.
                return current
            }
            current.idToken = grant.idToken
            current.refreshToken = grant.refreshToken
            maintenance.handle(.refreshSucceeded)
            await apply(.updated(current))
            logger.debug("Refreshed the ID token", metadata: ["session.uid": "\(current.uid)"])
            reloadIfEmailChangePending(current.uid)
            return current
        } catch {
            if case .accountGone(let reason) = error, machine.session?.refreshToken == session.refreshToken {
                logger.warning(
                    "The backend refused the refresh token; the session is over",
                    metadata: ["session.uid": "\(session.uid)", "reason": "\(reason.rawValue)"])
                await endRefusedSession(reason, knownCause: knownCause)
            }
            throw error
        }
    }

    private func guestToken(
        uid: String, minValidity: TimeInterval, forceRefresh: Bool
    ) async throws(AuthError)
        -> IssuedToken
    {
        guard let pending = machine.persisted.pendingMerges.first(where: { $0.merge.fromUid == uid }) else {
            throw AuthError(
                .noSuchMerge, message: "That uid is neither the current user nor the guest of a pending merge.")
        }
        let guest = pending.guest
        if !forceRefresh && guest.idToken.isValid(for: guest.idToken.boundedValidity(minValidity), at: now()) {
            return IssuedToken(idToken: guest.idToken, uid: guest.uid)
        }
        let provider = self.provider
        do throws(RemoteAuthError) {
            let grant = try await call { () async throws(RemoteAuthError) in
                try await provider.refresh(guest.refreshToken)
            }
            guard
                var latest = machine.persisted.pendingMerges.first(where: { $0.merge.mergeId == pending.merge.mergeId })
            else { throw RemoteAuthError.rejected(AuthError(.noSuchMerge)) }
            latest.guest.idToken = grant.idToken
            latest.guest.refreshToken = grant.refreshToken
            await apply(.mergeGuestUpdated(latest))
            return IssuedToken(idToken: grant.idToken, uid: guest.uid)
        } catch {
            if error.isTransient, !forceRefresh, guest.idToken.remainingValidity(at: now()) > 0 {
                return IssuedToken(idToken: guest.idToken, uid: guest.uid)
            }
            if case .accountGone = error {
                throw AuthError(
                    .sessionRevoked,
                    message: "The guest account of this merge no longer exists at the backend; complete the merge.")
            }
            throw error.authError
        }
    }

    /// Calls the backend with a valid ID token of the current user: refreshes first when the
    /// token is about to expire, and once more when the backend refuses it.
    func withFreshToken<T: Sendable>(
        _ body: @Sendable (IDToken) async throws(RemoteAuthError) -> T
    ) async throws(AuthError) -> T {
        guard let session = machine.session else { throw AuthError(.noCurrentUser) }
        var token = session.idToken
        do throws(RemoteAuthError) {
            if !token.isValid(for: 60, at: now()) {
                token = try await refreshCurrentSession().idToken
            }
            do throws(RemoteAuthError) {
                return try await call { () async throws(RemoteAuthError) in try await body(token) }
            } catch .idTokenRejected {
                token = try await refreshCurrentSession().idToken
                return try await call { () async throws(RemoteAuthError) in try await body(token) }
            }
        } catch {
            throw await settle(error, session: session)
        }
    }

    /// Turns a backend failure into the caller's error; a gone account ends the session.
    func settle(_ error: RemoteAuthError, session: Session?) async -> AuthError {
        if case .accountGone(let reason) = error, let session, machine.session?.uid == session.uid {
            await endRefusedSession(reason)
        }
        guard let session else { return error.authError }
        return endOfSessionError(error.authError, uid: session.uid)
    }
}
