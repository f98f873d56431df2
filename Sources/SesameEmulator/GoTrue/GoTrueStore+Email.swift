import SesameCore
import SesameLocalAPI

/// The mailed one-time codes: `/otp`, `/recover`, `/verify` and `admin/generate_link`.
extension GoTrueStore {
    /// Makes a code of `type` for `email`, records the mail and returns the code. A new code
    /// replaces the user's previous code of the same type.
    /// - Parameters:
    ///   - rateLimited: whether GoTrue's per-address send timer applies and restarts (errata G.8).
    ///   - mailed: `false` for `admin/generate_link`, which hands the code back instead.
    @discardableResult
    func sendCode(
        type: String, userId: String, email: String, origin: String, redirectTo: String? = nil, rateLimited: Bool,
        mailed: Bool = true
    ) throws(GoTrueError) -> OneTimeCode {
        let at = now
        if rateLimited { try GoTrueMailbox.checkTimer(mail.lastSent[email], now: at) }
        let otp = SupabaseHash.otp()
        let code = OneTimeCode(
            type: type, userId: userId, email: email, otp: otp,
            hashedToken: SupabaseHash.tokenHash(email: email, otp: otp),
            sentAt: at, redirectTo: redirectTo)
        mail.void(codesOf: userId) { $0.type == type }
        mail.codes.append(code)
        if rateLimited { mail.lastSent[email] = at }
        switch type {
        case "recovery", "magiclink": users[userId]?.recoverySentAt = at
        case "email_change", "email_change_current": users[userId]?.emailChangeSentAt = at
        case "reauthentication": users[userId]?.reauthenticationSentAt = at
        case "invite":
            users[userId]?.invitedAt = at
            users[userId]?.confirmationSentAt = at
        default: users[userId]?.confirmationSentAt = at
        }
        guard mailed else { return code }
        mail.messages.append(
            SupabaseMessage(
                type: type, email: email, otp: otp, hashedToken: code.hashedToken,
                // The reauthentication mail carries the code only.
                link: type == "reauthentication" ? "" : actionLink(code, origin: origin),
                sentAt: at))
        return code
    }

    func actionLink(_ code: OneTimeCode, origin: String) -> String {
        let redirect = PercentEncoding.queryValue(code.redirectTo ?? origin)
        return
            "\(origin)\(server.pathPrefix)/verify?token=\(code.hashedToken)&type=\(code.type)&redirect_to=\(redirect)"
    }

    /// `POST /otp` with an email: mails a code that `/verify` with `type: "email"` accepts.
    func sendOTP(_ body: OTPBody, origin: String) throws(GoTrueError) -> JSONValue {
        guard let raw = body.email, !raw.isEmpty else {
            if body.phone?.isEmpty == false { throw .phoneProviderDisabled("Unsupported phone provider") }
            throw .validation("One of email or phone must be set")
        }
        let email = try Self.validEmail(raw)
        if let user = users.with(email: email) {
            try sendCode(
                type: user.emailConfirmedAt == nil ? "signup" : "magiclink", userId: user.id, email: email,
                origin: origin, redirectTo: body.emailRedirectTo, rateLimited: true)
            return [:]
        }
        guard body.createUser ?? true else { throw .unprocessable("otp_disabled", "Signups not allowed for otp") }
        // magic_link.go signs a new user up through signup.go, which refuses when signups are off.
        guard configuration.signupEnabled else { throw .signupDisabled }
        try GoTrueMailbox.checkTimer(mail.lastSent[email], now: now)
        let user = addUser(email: email, metadata: body.data)
        try sendCode(type: "signup", userId: user.id, email: email, origin: origin, rateLimited: true)
        return [:]
    }

    /// `POST /recover`: mails a recovery code when the address is known; answers `{}` either way.
    func recover(_ body: RecoverBody, origin: String) throws(GoTrueError) -> JSONValue {
        let email = try Self.validEmail(body.email ?? "")
        if let user = users.with(email: email) {
            try sendCode(type: "recovery", userId: user.id, email: email, origin: origin, rateLimited: true)
        }
        return [:]
    }

    static let verifyTypes: [String: Set<String>] = [
        "email": ["signup", "magiclink", "recovery", "invite"], "signup": ["signup"],
        "magiclink": ["magiclink", "signup"],
        "recovery": ["recovery"], "invite": ["invite"], "email_change": ["email_change", "email_change_current"],
    ]

    /// `POST /verify` (and the link form): checks a code by `token` + `email` or by `token_hash`,
    /// applies it and starts a session for its user. A wrong, used or expired code is 403 `otp_expired`.
    func verify(_ body: VerifyBody, issuer: String) throws(GoTrueError) -> (session: JSONValue, redirectTo: String?) {
        try Self.refusePhoneVerification(body)
        // GoTrue's checks and words, in its order (verify.go `Validate`).
        guard let type = body.type, !type.isEmpty else { throw .validation("Verify requires a verification type") }
        let (token, hash) = (body.token ?? "", body.tokenHash ?? "")
        guard token.isEmpty != hash.isEmpty else { throw .validation("Verify requires either a token or a token hash") }
        if !hash.isEmpty, body.email?.isEmpty == false {
            throw .validation("Only the token_hash and type should be provided")
        }
        guard let accepted = Self.verifyTypes[type] else { throw .validation("Unsupported verification type") }
        let email = body.email?.lowercased() ?? ""
        if hash.isEmpty, email.isEmpty {
            throw .validation("Only an email address or phone number should be provided on verify")
        }
        let index = mail.codes.firstIndex {
            accepted.contains($0.type) && (hash.isEmpty ? $0.email == email && $0.otp == token : $0.hashedToken == hash)
        }
        guard let index, GoTrueMailbox.isFresh(mail.codes[index], now: now), var user = users[mail.codes[index].userId]
        else { throw .otpExpired }
        let code = mail.codes.remove(at: index)
        let emailChange = code.type.hasPrefix("email_change")
        if emailChange {
            // Secure email change: a permanent user confirms from both addresses (GoTrue asks for both only
            // when it mails confirmations, autoconfirm off); the first answers GoTrue's message and no session.
            let bothHalves = configuration.secureEmailChange && !configuration.autoconfirm
            if bothHalves, mail.codes.contains(where: { $0.userId == user.id && $0.type.hasPrefix("email_change") }) {
                return (["msg": .string(Self.otherHalfPending)], code.redirectTo)
            }
            mail.void(codesOf: user.id) { $0.type.hasPrefix("email_change") }
            let newEmail = code.type == "email_change" ? code.email : (user.newEmail ?? code.email)
            if let other = users.with(email: newEmail), other.id != user.id { throw .emailExists }
            user.email = newEmail
            user.newEmail = nil
            user.isAnonymous = false
        }
        if user.emailConfirmedAt == nil || emailChange { user.emailConfirmedAt = now }
        user.updatedAt = now
        user.ensureEmailIdentity(now: now)
        users[user.id] = user
        // GoTrue's verify.go issues every implicit-flow session with the `otp` method, whether the
        // code was typed or its link followed (a `magiclink` entry belongs to the PKCE flow only).
        return (startSession(userId: user.id, method: "otp", issuer: issuer), code.redirectTo)
    }

    static let otherHalfPending = "Confirmation link accepted. Please proceed to confirm link sent to the other email"

    /// `POST /admin/generate_link`: makes the code without mailing it (no send timer) and answers
    /// the user plus `action_link`, `email_otp`, `hashed_token`, `verification_type`, `redirect_to`.
    func generateLink(_ body: GenerateLinkBody, origin: String) throws(GoTrueError) -> JSONValue {
        let email = try Self.validEmail(body.email ?? "")
        var type = body.type ?? ""
        guard Self.linkTypes.contains(type) else {
            throw .validation("Invalid email action link type requested: \(type)")
        }
        var existing = users.with(email: email)
        // A magic link for an unknown address: GoTrue signs the address up, with no usable password.
        if existing == nil, type == "magiclink" { type = "signup" }
        if existing == nil, type != "signup", type != "invite" {
            throw .notFound("user_not_found", "User with this email not found")
        }
        var target = email
        switch type {
        case "signup", "invite":
            if existing?.emailConfirmedAt != nil { throw .emailExists }
            if existing == nil {
                let password = type == "signup" && body.type == "signup" ? try Self.signUpPassword(body.password) : nil
                existing = addUser(email: email, metadata: body.data, password: password)
            }
        case "email_change_current", "email_change_new":
            let newEmail = try Self.validEmail(body.newEmail ?? "")
            if let other = users.with(email: newEmail), other.id != existing?.id { throw .emailExists }
            users[existing?.id ?? ""]?.newEmail = newEmail
            if type == "email_change_new" { target = newEmail }
        default:
            break
        }
        guard let user = existing else { throw .adminUserNotFound }
        let code = try sendCode(
            type: type == "email_change_new" ? "email_change" : type, userId: user.id, email: target, origin: origin,
            redirectTo: body.redirectTo, rateLimited: false, mailed: false)
        var out = users[user.id]?.json.objectValue ?? [:]
        out["action_link"] = .string(actionLink(code, origin: origin))
        out["email_otp"] = .string(code.otp)
        out["hashed_token"] = .string(code.hashedToken)
        out["verification_type"] = .string(type)
        out["redirect_to"] = .string(body.redirectTo ?? origin)
        return .object(out)
    }

    static let linkTypes: Set = [
        "signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new",
    ]
}
