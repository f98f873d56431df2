import SesameLocalAPI

/// `GET /reauthenticate` and the nonce check of `PUT /user {password, nonce}` (GoTrue's
/// `reauthenticate.go` and `user.go`).
extension GoTrueStore {
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
        try sendCode(
            type: "reauthentication", userId: user.id, email: email, origin: origin, redirectTo: nil,
            rateLimited: false)
        return [:]
    }

    /// With secure password change on, a session older than 24 hours changes the password only
    /// with a valid nonce: none is 400 `reauthentication_needed`, a wrong or expired one 422
    /// `reauthentication_not_valid`. A valid nonce is spent with every other code of the user.
    func checkReauthentication(
        nonce: String?, user: GoTrueUser, session: GoTrueSession
    ) throws(GoTrueError) {
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
        else {
            throw .unprocessable("reauthentication_not_valid", "Nonce has expired or is invalid")
        }
        mail.void(codesOf: user.id)
    }
}
