import SesameLocalAPI

extension AccountStore {
    /// `accounts:signInWithPassword`, reference §4.2 (honours email enumeration protection).
    func signInWithPassword(
        _ body: SignInWithPasswordRequest
    ) throws(IdentityToolkitError) -> WithTokens<SignInWithPasswordResponse> {
        guard let email = body.email else { throw .invalid("MISSING_EMAIL") }
        if !AccountStore.isValidEmail(email) { throw .invalid("INVALID_EMAIL") }
        guard let password = body.password.nonEmpty else { throw .invalid("MISSING_PASSWORD") }
        if body.idToken != nil || body.pendingIdToken != nil {
            throw .notImplemented("NOT_IMPLEMENTED : idToken and pendingIdToken are not supported")
        }
        let privacy = config.enableImprovedEmailPrivacy
        guard var user = user(withEmail: email) else {
            throw .invalid(privacy ? "INVALID_LOGIN_CREDENTIALS" : "EMAIL_NOT_FOUND")
        }
        if user.disabled { throw .invalid("USER_DISABLED") }
        guard user.password == password || user.importedHashMatches(password) else {
            throw .invalid(privacy ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD")
        }
        // An imported hash is replaced by the emulator's own form at the first sign-in, as
        // Firebase rehashes imported passwords with its own algorithm.
        if user.password == nil { user.password = password }
        var response = SignInWithPasswordResponse(localId: user.localId, email: user.email ?? email.lowercased())
        if let pending = secondFactorPending(for: user, signInProvider: "password") {
            response.mfaPendingCredential = pending.credential
            response.mfaInfo = pending.mfaInfo
            return WithTokens(answer: response)
        }
        user.lastLoginAt = nowMilliseconds
        return WithTokens(answer: response, tokens: issueTokens(for: &user, signInProvider: "password"))
    }

    /// `accounts:signInWithCustomToken`, reference §4.11 (strict-JSON or unsigned JWT tokens; a JWT
    /// whose `exp` has passed is refused).
    func signInWithCustomToken(
        _ body: SignInWithCustomTokenRequest
    ) throws(IdentityToolkitError) -> WithTokens<SignInWithCustomTokenResponse> {
        guard let token = body.token.nonEmpty else { throw .invalid("MISSING_CUSTOM_TOKEN") }
        var payload: [String: JSONValue]
        if token.hasPrefix("{") {
            guard case .object(let o)? = try? JSONCoding.parse(token) else {
                throw .invalid(
                    "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
            }
            payload = o
        } else {
            guard let (_, p) = TokenFactory.decodeJWT(token) else {
                throw .invalid("INVALID_CUSTOM_TOKEN : Invalid assertion format. 3 dot separated segments required.")
            }
            let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
            if p["aud"]?.stringValue != audience {
                throw .invalid(
                    "INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): \(p["aud"]?.stringValue ?? "") Note that custom tokens must be signed by a service account.))"
                )
            }
            if let exp = p["exp"]?.intValue, exp <= nowSeconds {
                throw .invalid("INVALID_CUSTOM_TOKEN : Token expired.")
            }
            payload = p
        }
        guard let uid = payload["uid"]?.stringValue, !uid.isEmpty else { throw .invalid("MISSING_IDENTIFIER") }
        var claims: [String: JSONValue] = [:]
        switch payload["claims"] {
        case nil, .null?: break
        case .object(let o)?: claims = o
        default: throw .invalid("INVALID_CLAIMS")
        }
        try AccountStore.checkClaims(claims)
        let isNewUser = users[uid] == nil
        var user = users[uid] ?? newUser(localId: uid)
        if isNewUser { user.customAuth = true }
        if user.disabled { throw .invalid("USER_DISABLED") }
        user.lastLoginAt = nowMilliseconds
        return WithTokens(
            answer: SignInWithCustomTokenResponse(isNewUser: isNewUser),
            tokens: issueTokens(for: &user, signInProvider: "custom", extraClaims: claims))
    }

    /// `securetoken.googleapis.com/v1/token`, reference §4.12. Answers in snake_case.
    func grantToken(_ body: TokenRequest) throws(IdentityToolkitError) -> TokenGrantResponse {
        guard let grantType = body.grantType.nonEmpty else { throw .invalid("MISSING_GRANT_TYPE") }
        if grantType != "refresh_token" { throw .invalid("INVALID_GRANT_TYPE") }
        guard let refreshToken = body.refreshToken.nonEmpty else { throw .invalid("MISSING_REFRESH_TOKEN") }
        guard let grant = tokens.decodeRefreshToken(refreshToken), grant.projectId == tokens.projectId,
            var user = users[grant.localId]
        else { throw .invalid("INVALID_REFRESH_TOKEN") }
        if user.disabled { throw .invalid("USER_DISABLED") }
        // Identity Platform ends every session of an account whose address changed through a
        // confirmation link or whose password was reset (docs/emulator.md, "Second factors and
        // account security").
        if let changed = user.sessionsRevokedAt, (grant.issuedAt ?? 0) < changed { throw .invalid("TOKEN_EXPIRED") }
        let issued = issueTokens(
            for: &user, signInProvider: grant.provider ?? "password", extraClaims: grant.extraClaims ?? [:],
            secondFactor: grant.secondFactor)
        return TokenGrantResponse(
            idToken: issued.idToken, accessToken: issued.idToken, expiresIn: issued.expiresIn,
            refreshToken: issued.refreshToken, userId: user.localId)
    }

    /// The shortest session cookie Firebase issues: five minutes.
    static let sessionCookieMinimumDuration = 5 * 60
    /// The longest session cookie Firebase issues (and the default): two weeks.
    static let sessionCookieMaximumDuration = 14 * 24 * 60 * 60

    /// `createSessionCookie`: checks the ID token as every operation does (its user exists, is
    /// enabled, has not revoked it) and answers `{sessionCookie}`.
    func createSessionCookie(_ body: CreateSessionCookieRequest) throws(IdentityToolkitError) -> JSONValue {
        guard let idToken = body.idToken.nonEmpty else { throw .invalid("MISSING_ID_TOKEN") }
        let requested = body.validDuration ?? 0
        let duration = requested == 0 ? Self.sessionCookieMaximumDuration : requested
        guard (Self.sessionCookieMinimumDuration...Self.sessionCookieMaximumDuration).contains(duration) else {
            throw .invalid("INVALID_DURATION")
        }
        let (_, _, claims) = try verifyIdToken(idToken)
        let cookie = tokens.sessionCookie(from: claims, issuedAt: nowSeconds, validDuration: duration)
        return ["sessionCookie": .string(cookie)]
    }
}
