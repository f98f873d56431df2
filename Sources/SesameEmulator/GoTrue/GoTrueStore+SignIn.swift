import SesameLocalAPI

/// Sign-up and the `/token` grants: anonymous, email + password, refresh, id_token.
extension GoTrueStore {
    /// `POST /signup`: anonymous without email or phone, else an email + password user.
    func signUp(_ body: SignUpBody, issuer: String, origin: String) throws(GoTrueError) -> JSONValue {
        let (rawEmail, phone, data) = (body.email ?? "", body.phone ?? "", body.data ?? [:])
        // signup.go and anonymous.go refuse first when GOTRUE_DISABLE_SIGNUP is set.
        guard configuration.signupEnabled else { throw .signupDisabled }
        if rawEmail.isEmpty && phone.isEmpty {
            guard configuration.anonymousSignIns else { throw .anonymousDisabled }
            let user = GoTrueUser(now: now, email: nil, isAnonymous: true, metadata: data)
            users[user.id] = user
            return startSession(userId: user.id, method: "anonymous", issuer: issuer)
        }
        if rawEmail.isEmpty { throw .phoneProviderDisabled("Phone signups are disabled") }
        let email = try Self.validEmail(rawEmail)
        let password = try Self.signUpPassword(body.password)
        if let existing = users.with(email: email) {
            if configuration.autoconfirm { throw .userAlreadyExists }
            if existing.emailConfirmedAt != nil {
                // GoTrue's anti-enumeration answer: a made-up, unconfirmed user; nothing is mailed.
                var fake = GoTrueUser(now: now, email: email, metadata: data)
                fake.confirmationSentAt = now
                fake.appMetadata = ["provider": "email", "providers": ["email"]]
                return fake.json
            }
            try sendCode(type: "signup", userId: existing.id, email: email, origin: origin, rateLimited: true)
            return users[existing.id]?.json ?? .null
        }
        let user = addUser(email: email, metadata: data, password: password, confirmed: configuration.autoconfirm)
        if configuration.autoconfirm { return startSession(userId: user.id, method: "password", issuer: issuer) }
        try sendCode(type: "signup", userId: user.id, email: email, origin: origin, rateLimited: false)
        return users[user.id]?.json ?? .null
    }

    /// `POST /token?grant_type=password`.
    func passwordGrant(_ body: PasswordGrantBody, issuer: String) throws(GoTrueError) -> JSONValue {
        let (email, phone) = (body.email ?? "", body.phone ?? "")
        if !email.isEmpty && !phone.isEmpty {
            throw .validation("Only an email address or phone number should be provided on login.")
        }
        if !phone.isEmpty { throw .phoneProviderDisabled("Phone logins are disabled", status: 422) }
        if email.isEmpty { throw .validation("missing email or phone") }
        guard let password = body.password, let user = users.with(email: email), let stored = user.password,
            stored.matches(password)
        else { throw .invalidCredentials }
        // GoTrue's token.go: an unconfirmed address cannot sign in, whatever autoconfirm says
        // (autoconfirm confirms at sign-up; an admin-created user without email_confirm stays unconfirmed).
        if user.emailConfirmedAt == nil { throw .badRequest("email_not_confirmed", "Email not confirmed") }
        if user.isBanned(at: now) { throw .userBanned }
        return startSession(userId: user.id, method: "password", issuer: issuer)
    }

    /// `POST /token?grant_type=refresh_token`: rotation with the parent rule, the reuse interval
    /// and family revocation (errata G.1–G.3).
    func refreshGrant(_ body: RefreshGrantBody, issuer: String) throws(GoTrueError) -> JSONValue {
        guard let token = body.refreshToken, RefreshTokenChain.isWellFormed(token) else { throw .refreshTokenInvalid }
        guard let row = sessions.refreshTokens.row(token) else { throw .refreshTokenNotFound }
        guard let session = sessions[row.sessionId], let user = users[session.userId] else {
            throw .badRequest("session_not_found", "Invalid Refresh Token: No Valid Session Found")
        }
        if user.isBanned(at: now) { throw .badRequest("user_banned", "Invalid Refresh Token: User Banned") }
        switch sessions.refreshTokens.refresh(
            token, now: now, reuseIntervalSeconds: configuration.refreshReuseIntervalSeconds)
        {
        case .rotated(let next), .current(let next):
            sessions[session.id]?.refreshedAt = now
            return sessionJSON(sessionId: session.id, refreshToken: next, issuer: issuer)
        case .alreadyUsed:
            throw .refreshTokenAlreadyUsed
        case .notFound:
            throw .refreshTokenNotFound
        }
    }

    static let idTokenProviders: Set<String> = ["google", "apple", "azure", "facebook", "keycloak", "kakao"]
    /// The issuers GoTrue maps to a provider when `issuer` + `client_id` come without `provider`.
    static let idTokenIssuers = ["https://appleid.apple.com": "apple", "https://accounts.google.com": "google"]

    /// `provider`, else the allowed `issuer`, else "" (refused by the caller).
    /// - Throws: the OAuth-shaped error when neither `provider` nor `client_id` and `issuer` are given.
    static func idTokenProvider(_ body: IdTokenGrantBody) throws(GoTrueError) -> String {
        if let provider = body.provider, !provider.isEmpty { return provider }
        guard let clientId = body.clientId, !clientId.isEmpty, let issuer = body.issuer, !issuer.isEmpty else {
            throw .oauth("invalid request", "provider or client_id and issuer required")
        }
        return idTokenIssuers[issuer] ?? ""
    }

    /// `POST /token?grant_type=id_token`: federated sign-in, or linking to the bearer's user with
    /// `link_identity: true`. The IdP token's signature is not checked (like the Firebase
    /// emulator's fake IdP credentials); its claims `sub`, `email`, `email_verified` are used.
    func idTokenGrant(_ body: IdTokenGrantBody, bearer: String?, issuer: String) throws(GoTrueError) -> JSONValue {
        // token_oidc.go's order: the OAuth-shaped input errors, the linking bearer, then the provider.
        guard let idToken = body.idToken, !idToken.isEmpty else { throw .oauth("invalid request", "id_token required") }
        let provider = try Self.idTokenProvider(body)
        if body.linkIdentity == true, bearer?.isEmpty ?? true {
            throw .oauth("invalid request", "Linking requires a valid user access token in Authorization")
        }
        let linking = body.linkIdentity == true ? try authenticate(bearer: bearer).0 : nil
        guard Self.idTokenProviders.contains(provider) || provider.hasPrefix("custom:") else {
            throw .validation("Custom OIDC provider \"\(body.provider ?? "")\" not allowed")
        }
        guard let (_, claims) = TokenFactory.decodeJWT(idToken) else { throw .oauth("invalid request", "Bad ID token") }
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else {
            throw .oauth("invalid request", "Missing sub claim in id_token")
        }
        try Self.checkNonce(raw: body.nonce, inToken: claims["nonce"]?.stringValue)
        let email = try claims["email"]?.stringValue.map { (e: String) throws(GoTrueError) in try Self.validEmail(e) }
        let verified = claims["email_verified"]?.boolValue ?? (claims["email_verified"]?.stringValue == "true")
        let identity = GoTrueIdentity(
            provider: provider, sub: sub, claims: claims, email: email, verified: verified, now: now)

        if let user = linking {
            if let owner = users.owner(of: provider, providerId: sub) {
                throw .unprocessable(
                    "identity_already_exists",
                    owner.id == user.id ? "Identity is already linked" : "Identity is already linked to another user")
            }
            if let email, let other = users.with(email: email), other.id != user.id {
                throw .badRequest("email_exists", GoTrueError.emailExists.message)
            }
            if email != nil && !verified && user.isAnonymous { throw .unverifiedEmail(provider) }
            users.link(identity, to: user.id, email: verified ? email : nil, now: now)
            return startSession(userId: user.id, method: "oauth", issuer: issuer)
        }

        let userId = try federatedUserId(identity, verified: verified)
        return startSession(userId: userId, method: "oauth", issuer: issuer)
    }

    /// The user a federated sign-in (no bearer) lands on: the identity's owner, else the user with the verified
    /// email (the identity is linked), else a new user.
    /// - Throws: 422 `email_not_confirmed` for a new user whose unverified email cannot be confirmed; `user_banned`.
    func federatedUserId(_ identity: GoTrueIdentity, verified: Bool) throws(GoTrueError) -> String {
        let email = identity.email
        let userId: String
        if let owner = users.owner(of: identity.provider, providerId: identity.providerId) {
            userId = owner.id
        } else if let email, verified, let existing = users.with(email: email) {
            userId = existing.id
            users.link(identity, to: userId, email: nil, now: now)
        } else {
            // external.go's CreateAccount decision refuses when signups are off.
            guard configuration.signupEnabled else { throw .signupDisabled }
            var user = GoTrueUser(now: now, email: email)
            if email != nil && (verified || configuration.autoconfirm) { user.emailConfirmedAt = now }
            users[user.id] = user
            users.link(identity, to: user.id, email: nil, now: now)
            userId = user.id
            if email != nil && user.emailConfirmedAt == nil { throw .unverifiedEmail(identity.provider) }
        }
        if users[userId]?.isBanned(at: now) == true { throw .userBanned }
        return userId
    }

    /// GoTrue's nonce rule: both present (the token holding SHA-256 of the raw nonce) or both absent.
    static func checkNonce(raw: String?, inToken: String?) throws(GoTrueError) {
        switch (raw, inToken) {
        case (nil, nil): return
        case (let raw?, let hashed?):
            if hashed != SupabaseHash.sha256Hex(raw) { throw .oauth("invalid request", "Nonces mismatch") }
        default:
            throw .oauth("invalid request", "Passed nonce and nonce in id_token should either both exist or not.")
        }
    }
}
