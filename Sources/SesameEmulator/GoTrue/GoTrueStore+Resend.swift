import SesameLocalAPI

/// `/resend` and the admin's `/invite`: mails sent again, or to a user the admin invites.
extension GoTrueStore {
    /// `POST /resend`, checked in the order of GoTrue's `resend.go`. An unknown address, a
    /// confirmed signup or an email change no longer pending answers `{}` without a mail.
    func resend(_ body: ResendBody, origin: String, redirectTo: String?) throws(GoTrueError) -> JSONValue {
        let (type, email, phone) = (body.type ?? "", body.email ?? "", body.phone ?? "")
        guard ["signup", "email_change", "sms", "phone_change"].contains(type) else {
            throw .validation("Missing one of these types: signup, email_change, sms, phone_change")
        }
        if type == "signup" || type == "email_change" {
            _ = try Self.checkPKCE(challenge: body.codeChallenge, method: body.codeChallengeMethod)
        }
        if email.isEmpty && type == "signup" { throw .validation("Type provided requires an email address") }
        if phone.isEmpty && type == "sms" { throw .validation("Type provided requires a phone number") }
        if !email.isEmpty && !phone.isEmpty {
            throw .validation("Only an email address or phone number should be provided.")
        }
        if !phone.isEmpty {
            guard configuration.phoneEnabled else { throw .phoneProviderDisabled("Phone logins are disabled") }
            // resend.go: validatePhone (``isE164(_:)``), then the user with that number: none (no phone users): `{}`.
            guard Self.isE164(phone) else { throw .validation("Invalid phone number format (E.164 required)") }
            return [:]
        }
        guard !email.isEmpty else { throw .validation("Missing email address or phone number") }
        guard let user = users.with(email: try Self.validEmail(email)), let address = user.email else { return [:] }
        // Nothing is mailed for a phone type with an email address and no phone: GoTrue finds no phone.
        if type == "signup", user.emailConfirmedAt == nil {
            try GoTrueMailbox.checkTimer(user.confirmationSentAt, now: now)
            try sendCode(
                type: "signup", userId: user.id, email: address, origin: origin, redirectTo: redirectTo,
                rateLimited: true)
        } else if type == "email_change", let newEmail = user.newEmail {
            try GoTrueMailbox.checkTimer(user.emailChangeSentAt, now: now)
            try mailEmailChange(user, to: newEmail, origin: origin, redirectTo: redirectTo)
        }
        return [:]
    }

    /// `POST /invite {email, data}`: creates the user (no password, `invited_at` set) unless an
    /// unconfirmed one exists, and mails it an `invite` link; a confirmed address is 422 `email_exists`.
    func invite(_ body: RecoverBody, origin: String, redirectTo: String?) throws(GoTrueError) -> JSONValue {
        let email = try Self.validEmail(body.email ?? "")
        let userId: String
        if let existing = users.with(email: email) {
            if existing.emailConfirmedAt != nil { throw .emailExists }
            userId = existing.id
        } else {
            userId = addUser(email: email, metadata: body.data).id
        }
        try sendCode(
            type: "invite", userId: userId, email: email, origin: origin, redirectTo: redirectTo, rateLimited: false)
        return users[userId]?.json ?? .null
    }
}
