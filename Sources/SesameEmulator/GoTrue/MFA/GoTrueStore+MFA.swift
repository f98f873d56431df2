import Foundation
import SesameCore
import SesameLocalAPI

/// GoTrue's `/factors` (TOTP only): enrol, challenge, verify (which raises the session to
/// `aal2`), unenrol. The rules and error codes are GoTrue's `mfa.go` (docs/emulator.md).
extension GoTrueStore {
    /// `GOTRUE_MFA_CHALLENGE_EXPIRY_DURATION`: seconds a challenge can be verified.
    static let challengeLifetime = 300
    /// `GOTRUE_MFA_FACTOR_EXPIRY_DURATION`: seconds an unverified factor lives.
    static let unverifiedFactorLifetime = 300
    /// `GOTRUE_MFA_MAX_ENROLLED_FACTORS` and `…_MAX_VERIFIED_FACTORS`.
    static let maxFactors = 10

    /// Takes one request from GoTrue's MFA bucket of `client` (``MFARateLimiter``).
    func allowMFA(_ endpoint: MFARateLimiter.Endpoint, client: String) -> Bool {
        challenges.limits.allow(endpoint, client: client, now: now)
    }

    /// The user and session of a `/factors` call: authenticated and not anonymous.
    func factorCaller(bearer: String?) throws(GoTrueError) -> (GoTrueUser, GoTrueSession) {
        let (user, session) = try authenticate(bearer: bearer)
        if user.isAnonymous {
            throw .forbidden("no_authorization", "Anonymous user not allowed to perform these actions")
        }
        return (user, session)
    }

    /// The caller's factor `id` (GoTrue's `loadFactor`).
    func ownedFactor(_ id: String, of user: GoTrueUser) throws(GoTrueError) -> GoTrueFactor {
        guard UUID(uuidString: id) != nil else { throw .notFound("validation_failed", "factor_id must be an UUID") }
        guard let factor = user.factors?.first(where: { $0.id == id.lowercased() }) else {
            throw .notFound("mfa_factor_not_found", "Factor not found")
        }
        return factor
    }

    /// `POST /factors {factor_type, friendly_name, issuer}`.
    func enrollFactor(_ body: EnrollFactorBody, bearer: String?, host: String) throws(GoTrueError) -> JSONValue {
        let (current, session) = try factorCaller(bearer: bearer)
        switch body.factorType {
        case "totp": break
        case "phone": throw .unprocessable("mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone")
        case "webauthn": throw .unprocessable("mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn")
        default: throw .validation("factor_type needs to be totp, phone, or webauthn")
        }
        var user = current
        // GoTrue's validateFactors: expired unverified factors go first, then the checks.
        user.factors?.removeAll { !$0.isVerified && now - $0.createdAt > Self.unverifiedFactorLifetime * 1000 }
        let name = body.friendlyName ?? ""
        let factors = user.factors ?? []
        if factors.contains(where: { $0.friendlyName == name }) {
            throw .unprocessable(
                "mfa_factor_name_conflict", "A factor with the friendly name \"\(name)\" for this user already exists")
        }
        if factors.count >= Self.maxFactors || factors.filter(\.isVerified).count >= Self.maxFactors {
            throw .unprocessable(
                "too_many_enrolled_mfa_factors", "Maximum number of verified factors reached, unenroll to continue")
        }
        if factors.contains(where: \.isVerified) && !session.isAAL2 {
            throw .forbidden("insufficient_aal", "AAL2 required to enroll a new factor")
        }
        let issuer = body.issuer.nonEmpty ?? host
        let secret = TOTP.random().base32
        let uri = Self.otpauthURI(issuer: issuer, account: user.email ?? "", secret: secret)
        let factor = GoTrueFactor(friendlyName: name, secret: secret, createdAt: now, updatedAt: now)
        user.factors = factors + [factor]
        users[user.id] = user
        return [
            "id": .string(factor.id), "type": "totp", "friendly_name": .string(name),
            "totp": ["qr_code": .string(TOTPQRCode.svg(uri)), "secret": .string(secret), "uri": .string(uri)],
        ]
    }

    /// The key URI of an authenticator app: `otpauth://totp/ISSUER:ACCOUNT?…` with the
    /// parameters in name order (as GoTrue's TOTP library writes it).
    static func otpauthURI(issuer: String, account: String, secret: String) -> String {
        // Go's URL path escaping keeps `:` and `@`.
        let label = [issuer, account].map { PercentEncoding.pathSegment($0).replacingOccurrences(of: "%40", with: "@") }
            .joined(separator: ":")
        let query = [
            ("algorithm", "SHA1"), ("digits", "6"), ("issuer", issuer), ("period", "30"), ("secret", secret),
        ]
        return "otpauth://totp/" + label + "?" + PercentEncoding.form(query)
    }

    /// `POST /factors/{id}/challenge` → `{id, type, expires_at}`.
    func challengeFactor(_ factorId: String, bearer: String?) throws(GoTrueError) -> JSONValue {
        let (user, _) = try factorCaller(bearer: bearer)
        let factor = try ownedFactor(factorId, of: user)
        let challenge = MFAChallenge(id: UUID().uuidString.lowercased(), factorId: factor.id, createdAt: now)
        challenges.mfa[challenge.id] = challenge
        users.updateFactor(factor.id, of: user.id) { $0.lastChallengedAt = now }
        return [
            "id": .string(challenge.id), "type": .string(factor.factorType),
            "expires_at": .int(challenge.createdAt / 1000 + Self.challengeLifetime),
        ]
    }

    /// `POST /factors/{id}/verify {challenge_id, code}`: a right code verifies the factor, adds
    /// `totp` to the session's methods (so it is `aal2`), swaps its refresh token, ends the
    /// user's other `aal1` sessions, drops other unverified TOTP factors and answers the session.
    func verifyFactor(
        _ factorId: String, _ body: VerifyFactorBody, bearer: String?, issuer: String
    ) throws(GoTrueError) -> JSONValue {
        let (user, session) = try factorCaller(bearer: bearer)
        let factor = try ownedFactor(factorId, of: user)
        guard let code = body.code, !code.isEmpty else { throw .validation("Code needs to be non-empty") }
        guard let raw = body.challengeId, UUID(uuidString: raw) != nil else {
            throw .badJSON("challenge_id must be an UUID")
        }
        guard let challenge = challenges.mfa[raw.lowercased()], challenge.factorId == factor.id else {
            throw .unprocessable("mfa_factor_not_found", "MFA factor with the provided challenge ID not found")
        }
        if challenge.verifiedAt != nil {
            throw .unprocessable("mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch.")
        }
        if now - challenge.createdAt > Self.challengeLifetime * 1000 {
            challenges.mfa[challenge.id] = nil
            throw .unprocessable(
                "mfa_challenge_expired",
                "MFA challenge \(challenge.id) has expired, verify against another challenge or create a new challenge."
            )
        }
        let date = Date(timeIntervalSince1970: TimeInterval(now) / 1000)
        guard let totp = TOTP(base32: factor.secret), totp.verify(code, at: date) else {
            throw .unprocessable("mfa_verification_failed", "Invalid TOTP code entered")
        }
        challenges.mfa[challenge.id]?.verifiedAt = now
        users.updateFactor(factor.id, of: user.id) {
            $0.status = GoTrueFactor.verified
            $0.updatedAt = now
        }
        users[user.id]?.factors?.removeAll { !$0.isVerified && $0.factorType == factor.factorType }
        sessions[session.id]?.addMethod("totp", at: nowSeconds)
        sessions[session.id]?.factorId = factor.id
        sessions.end(sessions.ids(of: user.id).filter { sessions[$0]?.isAAL2 == false })
        let refresh = sessions.refreshTokens.restart(sessionId: session.id, now: now)
        return sessionJSON(sessionId: session.id, refreshToken: refresh, issuer: issuer)
    }

    /// `DELETE /factors/{id}` → `{id}`: a verified factor only from `aal2`; sessions it raised go back to `aal1`.
    func unenrollFactor(_ factorId: String, bearer: String?) throws(GoTrueError) -> JSONValue {
        let (user, session) = try factorCaller(bearer: bearer)
        let factor = try ownedFactor(factorId, of: user)
        if factor.isVerified && !session.isAAL2 {
            throw .unprocessable("insufficient_aal", "AAL2 required to unenroll verified factor")
        }
        removeFactor(factor, of: user.id)
        return ["id": .string(factor.id)]
    }

    /// Deletes `factor`, its open challenges, and the second-factor methods of the sessions it
    /// raised (GoTrue's `DowngradeSessionsToAAL1`).
    func removeFactor(_ factor: GoTrueFactor, of userId: String) {
        users[userId]?.factors?.removeAll { $0.id == factor.id }
        challenges.drop(factors: [factor.id])
        sessions.downgrade(raisedBy: factor.id)
    }

    // MARK: `/admin/users/{id}/factors`: a user's second factors as the service role sees them
    // (GoTrue's admin.go: `adminUserGetFactors`, `adminUserUpdateFactor`, `adminUserDeleteFactor`).

    /// `GET /admin/users/{id}/factors`: every factor of the user, verified or not (`[]` when none).
    func adminFactors(ofUser id: String) throws(GoTrueError) -> JSONValue {
        .array((try adminUser(id).factors ?? []).map(\.json))
    }

    /// `PUT /admin/users/{id}/factors/{factor_id} {friendly_name}`: the factor after the change.
    func adminUpdateFactor(
        _ factorId: String, ofUser id: String, friendlyName: String?
    ) throws(GoTrueError) -> JSONValue {
        let user = try adminUser(id)
        var factor = try ownedFactor(factorId, of: user)
        if let friendlyName, !friendlyName.isEmpty {
            factor.friendlyName = friendlyName
            factor.updatedAt = now
            users.updateFactor(factor.id, of: user.id) { [factor] in $0 = factor }
        }
        return factor.json
    }

    /// `DELETE /admin/users/{id}/factors/{factor_id}`: verified or not, without the AAL2 the
    /// user's own unenrolment needs; the sessions it raised go back to AAL1. Answers the factor.
    func adminDeleteFactor(_ factorId: String, ofUser id: String) throws(GoTrueError) -> JSONValue {
        let user = try adminUser(id)
        let factor = try ownedFactor(factorId, of: user)
        removeFactor(factor, of: user.id)
        return factor.json
    }
}
