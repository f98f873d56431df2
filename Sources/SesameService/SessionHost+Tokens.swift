import Foundation
import Logging
import SesameCore

/// The tokens feature: ID tokens for callers, the shared refresh, the fresh-token path every
/// backend call with the user's token takes. Its own field is ``TokenRefresh`` (in
/// ``SessionFeatures``); ``Tokens`` is its public face.
extension SessionHost {
    /// The token ``Tokens/idToken(minValidity:forceRefresh:uid:)`` answers with (its rules).
    func issueToken(
        minValidity: TimeInterval = 300, forceRefresh: Bool = false, uid: String? = nil
    ) async throws(AuthError) -> SessionService.IssuedToken {
        if let uid, uid != session?.uid {
            return try await guestToken(uid: uid, minValidity: minValidity, forceRefresh: forceRefresh)
        }
        guard let session = self.session else { throw AuthError(.noCurrentUser) }
        if !forceRefresh && session.idToken.isValid(for: session.idToken.boundedValidity(minValidity), at: now()) {
            return SessionService.IssuedToken(idToken: session.idToken, uid: session.uid)
        }
        // While an address change is pending, a forced refresh (`sesamectl status`) also looks at
        // the profile before it answers, not in a task of its own that a confirmation could
        // overtake: a change confirmed by then is followed, or has ended the session, first.
        let looksAtProfile = forceRefresh && persisted.pendingEmails[session.uid] != nil
        let refreshed: Session
        do throws(RemoteAuthError) {
            refreshed = try await refreshCurrentSession(reloadsPendingChange: !looksAtProfile)
        } catch {
            if error.isTransient, !forceRefresh, let current = self.session, current.uid == session.uid,
                current.idToken.remainingValidity(at: now()) > 0
            {
                return SessionService.IssuedToken(idToken: current.idToken, uid: current.uid)
            }
            throw endOfSessionError(error, uid: session.uid)
        }
        guard looksAtProfile else { return SessionService.IssuedToken(idToken: refreshed.idToken, uid: refreshed.uid) }
        await reloadExclusively()
        guard let current = self.session, current.uid == session.uid else {
            guard persisted.pendingEmails[session.uid] != nil else { throw AuthError(.noCurrentUser) }
            throw endOfSessionError(AuthError(.credentialsChanged), uid: session.uid)
        }
        return SessionService.IssuedToken(idToken: current.idToken, uid: current.uid)
    }

    /// Refreshes the current session's tokens; concurrent callers share one backend call: one
    /// that arrives while a refresh runs waits for that refresh's outcome (``TokenRefresh``).
    /// - Parameters:
    ///   - knownCause: why the backend may refuse it, when the daemon knows (it has just changed
    ///     the account's password): a refusal then ends the session with that cause.
    ///   - reloadsPendingChange: whether a pending address change has the profile read again
    ///     after the refresh, in a task of its own; false when the caller reads it itself.
    func refreshCurrentSession(
        knownCause: AuthChangeReason? = nil, reloadsPendingChange: Bool = true
    ) async throws(RemoteAuthError) -> Session {
        if features.refresh.isRefreshing {
            return try await withCheckedContinuation { features.refresh.wait($0) }.get()
        }
        features.refresh.begin()
        let outcome: Result<Session, RemoteAuthError>
        if let session = self.session {
            do throws(RemoteAuthError) {
                outcome = .success(
                    try await performRefresh(
                        of: session, knownCause: knownCause, reloadsPendingChange: reloadsPendingChange))
            } catch {
                outcome = .failure(error)
            }
        } else {
            outcome = .failure(.rejected(AuthError(.noCurrentUser)))
        }
        for waiter in features.refresh.finish() { waiter.resume(returning: outcome) }
        return try outcome.get()
    }

    private func performRefresh(
        of session: Session, knownCause: AuthChangeReason?, reloadsPendingChange: Bool
    ) async throws(RemoteAuthError) -> Session {
        let provider = self.provider
        do throws(RemoteAuthError) {
            let grant: TokenGrant
            do throws(RemoteAuthError) {
                // A refresh is `refresh` (to the metrics, and when limited), whichever method
                // needed the token.
                let answer: Result<TokenGrant, RemoteAuthError> = await BackendOperation.$current.withValue(
                    BackendOperation.refresh
                ) {
                    do throws(RemoteAuthError) {
                        return .success(try await provider.refresh(session.refreshToken))
                    } catch {
                        return .failure(error)
                    }
                }
                grant = try answer.get()
            } catch {
                await apply(
                    BackendOperation.$current.withValue(BackendOperation.refresh) { connectivityEvent(after: error) })
                throw error
            }
            guard var current = self.session, current.uid == session.uid else {
                // Signed out or switched users meanwhile: these tokens belong to nobody now.
                await apply(.backendReached)
                throw RemoteAuthError.rejected(AuthError(.noCurrentUser))
            }
            guard current.refreshToken == session.refreshToken else {
                // A flow adopted newer tokens meanwhile; they win.
                await apply(.backendReached)
                return current
            }
            current.idToken = grant.idToken
            current.refreshToken = grant.refreshToken
            // One hold of the change lock: the backend answered, and the new tokens (whose
            // reschedule also starts the refresh backoff over: one plan event per refresh).
            await apply(.backendReached, .updated(current))
            logger.debug("Refreshed the ID token", metadata: ["session.uid": "\(current.uid)"])
            if reloadsPendingChange { reloadIfEmailChangePending(current.uid) }
            return current
        } catch {
            if case .accountGone(let reason) = error, self.session?.refreshToken == session.refreshToken {
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
        -> SessionService.IssuedToken
    {
        guard let pending = persisted.pendingMerges.first(where: { $0.merge.fromUid == uid }) else {
            throw AuthError(
                .noSuchMerge, message: "That uid is neither the current user nor the guest of a pending merge.")
        }
        let guest = pending.guest
        if !forceRefresh && guest.idToken.isValid(for: guest.idToken.boundedValidity(minValidity), at: now()) {
            return SessionService.IssuedToken(idToken: guest.idToken, uid: guest.uid)
        }
        let provider = self.provider
        do throws(RemoteAuthError) {
            let grant = try await call { () async throws(RemoteAuthError) in
                try await provider.refresh(guest.refreshToken)
            }
            guard
                var latest = persisted.pendingMerges.first(where: { $0.merge.mergeId == pending.merge.mergeId })
            else { throw RemoteAuthError.rejected(AuthError(.noSuchMerge)) }
            latest.guest.idToken = grant.idToken
            latest.guest.refreshToken = grant.refreshToken
            await apply(.mergeGuestUpdated(latest))
            return SessionService.IssuedToken(idToken: grant.idToken, uid: guest.uid)
        } catch {
            if error.isTransient, !forceRefresh, guest.idToken.remainingValidity(at: now()) > 0 {
                return SessionService.IssuedToken(idToken: guest.idToken, uid: guest.uid)
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
        guard let session = self.session else { throw AuthError(.noCurrentUser) }
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
        if case .accountGone(let reason) = error, let session, self.session?.uid == session.uid {
            await endRefusedSession(reason)
        }
        guard let session else { return error.authError }
        return endOfSessionError(error.authError, uid: session.uid)
    }
}
