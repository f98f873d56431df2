import Foundation
import Logging
import SesameCore

extension SessionHost {
    /// Signs in anonymously when nobody is signed in; returns the current state when already
    /// anonymous.
    /// - Throws: `already-signed-in` for an account; a backend error while offline.
    func signInAnonymously() async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            switch status {
            case .anonymous: return state
            case .authenticated: throw AuthError(.alreadySignedIn)
            case .signedOut, .starting: break
            }
            try await createAnonymousUser()
            return state
        }
    }

    /// Signs out. From an account, back to a fresh anonymous user; from an anonymous user only
    /// with `reset` (its account is deleted at the backend). `others` ends the account's other
    /// sessions at the backend and keeps this one; `everywhere` ends them all, then signs out
    /// here (a guest's deletion already ends every session of it).
    func signOut(reset: Bool, scope: SignOutScope = .local) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            guard let session = self.session else { throw AuthError(.noCurrentUser) }
            if session.user.isAnonymous, scope != .others {
                guard reset else { throw AuthError(.requiresResetConfirmation) }
                logger.info("Resetting the anonymous user", metadata: ["session.uid": "\(session.uid)"])
                await apply(.reset)
            } else if scope == .local {
                logger.info("Signing out", metadata: ["session.uid": "\(session.uid)"])
                await apply(.signedOut)
            } else {
                try await revokeSessions(of: session, scope: scope == .others ? .others : .all)
                guard scope == .everywhere else { return state }
                if self.session?.uid == session.uid { await apply(.signedOut) }
            }
            await followAnonymousFirst()
            await processDeletionsNow()
            return state
        }
    }

    /// Ends the account's other sessions, or all of them, at the backend.
    private func revokeSessions(of session: Session, scope: SessionRevocationScope) async throws(AuthError) {
        let provider = self.provider
        try await withFreshToken { token async throws(RemoteAuthError) in
            try await provider.revokeSessions(token, scope: scope)
        }
        logger.info(
            scope == .all ? "Ended every session of the account" : "Ended the account's other sessions",
            metadata: ["session.uid": "\(session.uid)"])
    }

    /// Deletes the signed-in account at the backend, then continues as after a sign-out.
    func deleteAccount() async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            guard let session = self.session else { throw AuthError(.noCurrentUser) }
            try await features.usernames?.releaseBeforeDeletion(of: session, in: self)
            let provider = self.provider
            let wasGone = try await withFreshToken { token async throws(RemoteAuthError) -> Bool in
                do throws(RemoteAuthError) {
                    try await provider.deleteAccount(token)
                    return false
                } catch .accountGone(.userNotFound) {
                    // An earlier delete went through and only its answer was lost: gone, as asked.
                    return true
                }
            }
            logger.info(
                wasGone ? "The account was already deleted at the backend" : "Deleted the account",
                metadata: ["session.uid": "\(session.uid)"])
            await apply(.accountDeleted)
            await followAnonymousFirst()
            return state
        }
    }

    /// Reads the account's profile from the backend again.
    func reload() async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            try await reloadProfile()
            return state
        }
    }

    /// Changes the display name (nil or empty removes it).
    func updateProfile(displayName: String?) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            guard let session = self.session else { throw AuthError(.noCurrentUser) }
            let provider = self.provider
            let grant = try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.updateProfile(token, displayName: displayName)
            }
            if let grant, var current = self.session, current.uid == session.uid {
                current.idToken = grant.idToken
                current.refreshToken = grant.refreshToken
                await apply(.updated(current))
            }
            try await reloadProfile()
            return state
        }
    }

    /// Sends a verification email to the account's address.
    func sendEmailVerification() async throws(AuthError) {
        try await exclusively { () async throws(AuthError) in
            guard let session = self.session else { throw AuthError(.noCurrentUser) }
            guard session.user.email != nil else {
                throw AuthError(.missingEmail, message: "This account has no email address to verify.")
            }
            let provider = self.provider
            try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.sendEmailVerification(token)
            }
        }
    }

    /// Sends a password-reset email to an email address, or to a username's address.
    func sendPasswordReset(identifier: String) async throws(AuthError) {
        try await exclusively { () async throws(AuthError) in
            let email = try await emailForIdentifier(identifier)
            let provider = self.provider
            try await callMapped { () async throws(RemoteAuthError) in
                try await provider.sendPasswordReset(email: email)
            }
        }
    }

    // MARK: - Shared steps

    /// Creates a new anonymous user and makes it current.
    func createAnonymousUser() async throws(AuthError) {
        let provider = self.provider
        let result = try await callMapped { () async throws(RemoteAuthError) in try await provider.signUpAnonymously() }
        let signedInAt = now()
        let user = User(uid: result.uid, isAnonymous: true, createdAt: signedInAt, lastSignInAt: signedInAt)
        plan(.anonymousCreated)
        logger.info("Created an anonymous user", metadata: ["session.uid": "\(result.uid)"])
        await apply(
            .signedIn(
                Session(user: user, idToken: result.idToken, refreshToken: result.refreshToken),
                reason: .anonymousCreated))
    }

    /// With anonymous first on and nobody signed in, creates the anonymous user now; offline,
    /// the maintenance loop keeps trying.
    func followAnonymousFirst() async {
        guard anonymousFirst, self.session == nil else { return }
        do throws(AuthError) {
            try await createAnonymousUser()
        } catch {
            plan(
                .anonymousFailed(
                    at: now(), random: .random(in: 0...1),
                    retryAfter: MaintenancePlan.spread(error.rateLimitWait, random: .random(in: 0...1))))
        }
    }

    /// Calls the backend, mapping failures to domain errors (no token involved).
    func callMapped<T: Sendable>(_ body: () async throws(RemoteAuthError) -> T) async throws(AuthError) -> T {
        do throws(RemoteAuthError) {
            return try await call(body)
        } catch {
            throw error.authError
        }
    }
}
