import SesameLocalAPI

/// The signed-in user's own endpoints: `GET /user`, `PUT /user`, `POST /logout`.
extension GoTrueStore {
    /// `PUT /user`: metadata, password and email changes (GoTrue `UserUpdate`, errata G.7).
    func updateUser(_ body: UserUpdateBody, bearer: String?, origin: String) throws(GoTrueError) -> JSONValue {
        let (current, session) = try authenticate(bearer: bearer)
        var user = current
        if body.appMetadata != nil {
            throw .forbidden("not_admin", "Updating app_metadata requires admin privileges")
        }
        let email = try body.email.nonEmpty.map { (e: String) throws(GoTrueError) in
            try Self.validEmail(e)
        }
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
            try Self.checkPassword(password)
            if user.password?.matches(password) == true {
                throw .unprocessable("same_password", "New password should be different from the old password.")
            }
            user.password = StoredPassword(password)
            user.reauthenticationSentAt = nil
            // GoTrue's UpdatePassword: every one-time code of the user is void, other sessions end.
            mail.void(codesOf: user.id)
            sessions.end(sessions.ids(of: user.id).filter { $0 != session.id })
        }
        if let data = body.data {
            for (key, value) in data { user.userMetadata[key] = value.isNull ? nil : value }
        }
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
        if let pendingEmail {
            try sendCode(
                type: "email_change", userId: user.id, email: pendingEmail, origin: origin, redirectTo: nil,
                rateLimited: true)
            // Secure email change (GoTrue's default): a permanent user also confirms from the current address.
            if !current.isAnonymous, let currentEmail = current.email {
                try sendCode(
                    type: "email_change_current", userId: user.id, email: currentEmail, origin: origin, redirectTo: nil,
                    rateLimited: false)
            }
        }
        return users[user.id]?.json ?? .null
    }

    /// `POST /logout?scope=global|local|others` (absent or empty: `global`). As GoTrue's
    /// logout.go: the bearer is checked first (the route's middleware), then the scope.
    func logout(scope: String?, bearer: String?) throws(GoTrueError) {
        let (user, session) = try authenticate(bearer: bearer)
        let scope = scope.nonEmpty ?? "global"
        guard ["global", "local", "others"].contains(scope) else {
            throw .validation("Unsupported logout scope \"\(scope)\"")
        }
        switch scope {
        case "local": sessions.end([session.id])
        case "others": sessions.end(sessions.ids(of: user.id).filter { $0 != session.id })
        default: sessions.end(sessions.ids(of: user.id))
        }
    }
}
