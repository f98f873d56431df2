import SesameLocalAPI

/// The signed-in user's own endpoints: `GET /user`, `PUT /user`, `POST /logout`, `GET /reauthenticate`.
extension GoTrueStore {
    /// `PUT /user`: metadata, password and email changes (GoTrue `UserUpdate`, errata G.7).
    func updateUser(_ body: UserUpdateBody, bearer: String?, origin: String) throws(GoTrueError) -> JSONValue {
        let (current, session) = try authenticate(bearer: bearer)
        var user = current
        if body.appMetadata != nil { throw .forbidden("not_admin", "Updating app_metadata requires admin privileges") }
        let email = try body.email.nonEmpty.map { (e: String) throws(GoTrueError) in try Self.validEmail(e) }
        let password = body.password.nonEmpty
        if user.hasVerifiedFactor, !session.isAAL2, password != nil || (email != nil && email != user.email) {
            throw GoTrueError(
                httpStatus: 401, code: "insufficient_aal",
                message: "AAL2 session is required to update email or password when MFA is enabled.")
        }
        if user.isAnonymous, password != nil, email == nil {
            throw .unprocessable(
                "validation_failed", "Updating password of an anonymous user without an email or phone is not allowed")
        }
        let changingEmail = email != nil && email != user.email
        if changingEmail, let email, let other = users.with(email: email), other.id != user.id { throw .emailExists }
        if body.password != nil { try checkReauthentication(nonce: body.nonce, user: user, session: session) }
        if let password {
            let stored = try Self.storedPassword(password)
            if user.password?.matches(password) == true {
                throw .unprocessable("same_password", "New password should be different from the old password.")
            }
            user.password = stored
            user.reauthenticationSentAt = nil
            // GoTrue's UpdatePassword: every one-time code of the user is void, other sessions end.
            mail.void(codesOf: user.id)
            sessions.end(sessions.ids(of: user.id).filter { $0 != session.id })
        }
        user.userMetadata.mergeMetadata(body.data)
        user.updatedAt = now
        var pendingEmail: String?
        if changingEmail, let email {
            if user.isAnonymous && configuration.autoconfirm {
                // Like GoTrue's emailChangeVerify: confirmed at once, provider left unset.
                let provider = user.appMetadata["provider"]
                user.email = email
                user.emailConfirmedAt = now
                user.isAnonymous = false
                user.ensureEmailIdentity(now: now)
                user.appMetadata["provider"] = provider
            } else {
                user.newEmail = email
                pendingEmail = email
            }
        } else if password != nil, user.email != nil, !user.identities.contains(where: { $0.provider == "email" }) {
            user.ensureEmailIdentity(now: now)
        }
        users[user.id] = user
        if let pendingEmail { try mailEmailChange(current, to: pendingEmail, origin: origin, redirectTo: nil) }
        return users[user.id]?.json ?? .null
    }

    /// Mails an email change's code to `newEmail` and, as secure email change (GoTrue's default)
    /// has a permanent user also confirm from the current address, one to that address.
    func mailEmailChange(
        _ user: GoTrueUser, to newEmail: String, origin: String, redirectTo: String?
    ) throws(GoTrueError) {
        try sendCode(
            type: "email_change", userId: user.id, email: newEmail, origin: origin, redirectTo: redirectTo,
            rateLimited: true)
        if !user.isAnonymous, let current = user.email {
            try sendCode(
                type: "email_change_current", userId: user.id, email: current, origin: origin, redirectTo: redirectTo,
                rateLimited: false)
        }
    }

    /// `POST /logout?scope=global|local|others` (absent or empty: `global`). As GoTrue's
    /// logout.go: the bearer is checked first (the route's middleware), then the scope.
    func logout(scope: String?, bearer: String?) throws(GoTrueError) {
        let (user, session) = try authenticate(bearer: bearer)
        switch scope.nonEmpty ?? "global" {
        case "global": sessions.end(sessions.ids(of: user.id))
        case "local": sessions.end([session.id])
        case "others": sessions.end(sessions.ids(of: user.id).filter { $0 != session.id })
        case let other: throw .validation("Unsupported logout scope \"\(other)\"")
        }
    }

    // MARK: `GET /reauthenticate` and `PUT /user`'s nonce (GoTrue's `reauthenticate.go` and `user.go`).

    /// The age after which a session must prove itself again to change the password.
    static let recentSessionSeconds = 86_400

    /// Mails the user a six-digit nonce (to the outbox, type `reauthentication`); `{}`.
    func reauthenticate(bearer: String?, origin: String) throws(GoTrueError) -> JSONValue {
        let (user, _) = try authenticate(bearer: bearer)
        guard let email = user.email, !email.isEmpty else {
            throw .validation("Reauthentication requires the user to have an email or a phone number")
        }
        if user.emailConfirmedAt == nil {
            throw .unprocessable("email_not_confirmed", "Please verify your email first.")
        }
        // GoTrue's own timer for this mail (reauthentication_sent_at), not the address's.
        try GoTrueMailbox.checkTimer(user.reauthenticationSentAt, now: now)
        try sendCode(type: "reauthentication", userId: user.id, email: email, origin: origin, rateLimited: false)
        return [:]
    }

    /// With secure password change on, a session older than 24 hours changes the password only
    /// with a valid nonce: none is 400 `reauthentication_needed`, a wrong or expired one 422
    /// `reauthentication_not_valid`. A valid nonce is spent with every other code of the user.
    func checkReauthentication(nonce: String?, user: GoTrueUser, session: GoTrueSession) throws(GoTrueError) {
        guard configuration.securePasswordChange, now > session.createdAt + Self.recentSessionSeconds * 1000 else {
            return
        }
        guard let nonce, !nonce.isEmpty else {
            throw .badRequest("reauthentication_needed", "Password update requires reauthentication")
        }
        guard
            mail.codes.contains(where: {
                $0.userId == user.id && $0.type == "reauthentication" && $0.otp == nonce
                    && GoTrueMailbox.isFresh($0, now: now)
            })
        else { throw .unprocessable("reauthentication_not_valid", "Nonce has expired or is invalid") }
        mail.void(codesOf: user.id)
    }
}
