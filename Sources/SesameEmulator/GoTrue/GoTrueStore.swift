import Foundation
import SesameLocalAPI

/// The single owner of the Supabase surface's state, one value-type part per concern, so that a
/// user's deletion cascades atomically to its sessions, codes, challenges and PostgREST rows.
actor GoTrueStore {
    /// The main Supabase port's server; a request on another port binds its own (``GoTrueServer/current``).
    let main: GoTrueServer
    let clock: EmulatorClock

    var users = GoTrueUsers()
    var sessions = GoTrueSessions()
    var mail = GoTrueMailbox()
    var challenges: GoTrueChallenges
    /// PostgREST's tables: their own owner, kept here so `on delete cascade` is atomic.
    var tables = PostgRESTTables()

    static let minimumPasswordLength = 6

    init(configuration: SupabaseEmulatorConfiguration, clock: EmulatorClock, signingKey: SupabaseSigningKey? = nil) {
        self.main = GoTrueServer(configuration: configuration, signingKey: signingKey)
        self.clock = clock
        self.challenges = GoTrueChallenges(limits: MFARateLimiter(perMinute: configuration.mfaRateLimitPerMinute))
    }

    /// The server of the port the current request came in on.
    nonisolated var server: GoTrueServer { GoTrueServer.current ?? main }
    /// That server's settings (autoconfirm, signups, lifetimes…).
    nonisolated var configuration: SupabaseEmulatorConfiguration { server.configuration }
    /// That server's keys.
    nonisolated var jwt: SupabaseJWT { server.jwt }

    var now: Int { clock.milliseconds() }
    var nowSeconds: Int { now / 1000 }

    /// A normalized email address, or 400 `validation_failed` when it is not one.
    static func validEmail(_ raw: String) throws(GoTrueError) -> String {
        let email = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), email.count <= 255 else {
            throw .validation("Unable to validate email address: invalid format")
        }
        return email
    }

    /// `password` salted and hashed, or 422 `weak_password` when it is too short.
    static func storedPassword(_ password: String) throws(GoTrueError) -> StoredPassword {
        if password.count < minimumPasswordLength { throw .weakPassword(minimum: minimumPasswordLength) }
        return StoredPassword(password)
    }

    /// A sign-up's password: required, then ``storedPassword(_:)``.
    static func signUpPassword(_ password: String?) throws(GoTrueError) -> StoredPassword {
        guard let password = password.nonEmpty else { throw .validation("Signup requires a valid password") }
        return try storedPassword(password)
    }

    /// Phone OTPs with the phone provider off: GoTrue still checks the number (verify.go, phone.go)
    /// and then finds no user with it. `POST /verify` with a token and a phone but no email: 400
    /// `validation_failed` for a malformed number, else 403 `otp_expired` (the emulator has no phone users).
    static func refusePhoneVerification(_ body: VerifyBody) throws(GoTrueError) {
        guard body.type?.isEmpty == false, let phone = body.phone, !phone.isEmpty, body.email?.isEmpty ?? true,
            body.token?.isEmpty == false, body.tokenHash?.isEmpty ?? true
        else { return }
        guard isE164(phone) else { throw .validation("Invalid phone number format (E.164 required)") }
        throw .otpExpired
    }

    /// phone.go: without a leading `+` and spaces, a digit 1-9 then 1 to 14 digits.
    static func isE164(_ raw: String) -> Bool {
        let digits = (raw.hasPrefix("+") ? String(raw.dropFirst()) : raw).replacingOccurrences(of: " ", with: "")
        guard let first = digits.first, first != "0", (2...15).contains(digits.count) else { return false }
        return digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Stores a new user of `email` with its `email` identity, confirmed now when `confirmed`.
    @discardableResult
    func addUser(
        email: String, metadata: [String: JSONValue]?, password: StoredPassword? = nil, confirmed: Bool = false
    ) -> GoTrueUser {
        var user = GoTrueUser(now: now, email: email, metadata: metadata)
        user.password = password
        if confirmed { user.emailConfirmedAt = now }
        user.ensureEmailIdentity(now: now)
        users[user.id] = user
        return user
    }

    // MARK: Sessions

    /// Starts a session for `userId` signed in by `method` and returns GoTrue's session JSON.
    func startSession(userId: String, method: String, issuer: String) -> JSONValue {
        let (session, refresh) = sessions.start(
            userId: userId, method: method, id: UUID().uuidString.lowercased(), now: now)
        let provider = ["password", "otp", "magiclink"].contains(method) ? "email" : method
        users.signedIn(userId, provider: provider, at: now)
        return sessionJSON(sessionId: session.id, refreshToken: refresh, issuer: issuer)
    }

    /// `{access_token, token_type, expires_in, expires_at, refresh_token, user}` for a session.
    func sessionJSON(sessionId: String, refreshToken: String, issuer: String) -> JSONValue {
        guard let session = sessions[sessionId], let user = users[session.userId] else { return .null }
        let (token, expiresAt) = accessToken(user: user, session: session, issuer: issuer)
        return [
            "access_token": .string(token), "token_type": "bearer", "expires_in": .int(configuration.jwtExpirySeconds),
            "expires_at": .int(expiresAt), "refresh_token": .string(refreshToken), "user": user.json,
        ]
    }

    /// An access token with GoTrue's claims (reference A.5); returns it and its `exp`.
    func accessToken(user: GoTrueUser, session: GoTrueSession, issuer: String) -> (String, Int) {
        let iat = nowSeconds
        let exp = iat + configuration.jwtExpirySeconds
        let claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(user.id), "aud": "authenticated", "exp": .int(exp), "iat": .int(iat),
            "email": .string(user.email ?? ""), "phone": "", "app_metadata": .object(user.appMetadata),
            "user_metadata": .object(user.userMetadata), "role": "authenticated", "aal": .string(session.aal),
            "amr": session.amrClaim, "session_id": .string(session.id), "is_anonymous": .bool(user.isAnonymous),
        ]
        return (jwt.sign(claims), exp)
    }

    // MARK: Bearer checks

    /// The verified claims of a bearer token.
    func claims(bearer: String?) throws(GoTrueError) -> [String: JSONValue] {
        guard let bearer, !bearer.isEmpty else { throw .noAuthorization }
        do {
            return try jwt.verify(bearer, now: nowSeconds)
        } catch .expired {
            throw .badJWT("token has invalid claims: token is expired")
        } catch {
            throw .badJWT("signature is invalid")
        }
    }

    /// The user and session a user endpoint acts for (errata G.4, G.5).
    func authenticate(bearer: String?) throws(GoTrueError) -> (GoTrueUser, GoTrueSession) {
        let claims = try claims(bearer: bearer)
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else {
            throw .badJWT("invalid claim: missing sub claim")
        }
        guard let user = users[sub] else { throw .userNotFound }
        guard let sid = claims["session_id"]?.stringValue, let session = sessions[sid], session.userId == sub else {
            throw .sessionNotFound
        }
        return (user, session)
    }

    /// Admin endpoints need a bearer JWT whose `role` is `service_role` or `supabase_admin`.
    func requireAdmin(bearer: String?) throws(GoTrueError) {
        let claims = try claims(bearer: bearer)
        guard let role = claims["role"]?.stringValue, ["service_role", "supabase_admin"].contains(role) else {
            throw .notAdmin
        }
    }

    // MARK: Deletion

    /// Deletes a user with everything that references it (`on delete cascade`).
    func deleteUser(_ id: String) {
        sessions.end(sessions.ids(of: id))
        challenges.drop(factors: Set(users[id]?.factors?.map(\.id) ?? []))
        users[id] = nil
        mail.void(codesOf: id)
        tables.deleteRows(of: id)
    }

    /// The messages as `GET /sesame/v1/supabase/messages` lists them.
    func messagesJSON() -> JSONValue { ["messages": .array(mail.messages.map(\.json))] }

    func clearMessages() { mail.messages = [] }
}
