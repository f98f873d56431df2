import Logging
import SesameCore
import SesameLocalAPI

/// The single owner of the Auth emulator's accounts, out-of-band codes and configuration.
///
/// Every operation runs to completion inside the actor without suspending, so each request is
/// atomic with respect to every other. Operations throw ``IdentityToolkitError`` with the exact message
/// strings of the Firebase Auth Emulator.
///
/// Its state is split by concern: accounts, out-of-band codes, browser sign-ins, second-factor
/// sessions and token settings, each a value with its own fields.
actor AccountStore {
    let clock: EmulatorClock
    let logger: Logger

    var users: [String: UserRecord] = [:]
    /// Pending codes in creation order.
    var oobCodes: [OobRecord] = []
    var config = AuthConfig()
    /// Browser sign-ins started by `createAuthUri` with a `providerId`, by session id.
    var idpSessions: [String: IdpSession] = [:]
    /// TOTP enrolments and first factors waiting for their second.
    var secondFactorSessions = SecondFactorSessions()
    var tokenSettings: TokenSettings

    init(projectId: String, clock: EmulatorClock, logger: Logger) {
        self.tokenSettings = TokenSettings(factory: TokenFactory(projectId: projectId))
        self.clock = clock
        self.logger = logger
    }

    var tokens: TokenFactory { tokenSettings.factory }

    // MARK: Time

    var nowMilliseconds: Int { clock.milliseconds() }
    var nowSeconds: Int { clock.milliseconds() / 1000 }

    // MARK: Lookups

    func user(withEmail email: String) -> UserRecord? {
        let lowered = email.lowercased()
        return users.values.first { $0.email == lowered }
    }

    func user(withProvider providerId: String, rawId: String) -> UserRecord? {
        users.values.first { user in
            user.federatedProviders.contains { $0.providerId == providerId && $0.rawId == rawId }
        }
    }

    func user(withPhone phone: String) -> UserRecord? { users.values.first { $0.phoneNumber == phone } }

    // MARK: Checks shared by operations

    static func isValidEmail(_ email: String) -> Bool {
        guard let at = email.firstIndex(of: "@"), at != email.startIndex else { return false }
        let rest = email[email.index(after: at)...]
        return !rest.isEmpty && !rest.contains("@")
    }

    /// The §3.1 checks for an incoming ID token, in the emulator's order.
    /// - Returns: the token's user and its `firebase.sign_in_provider`.
    func verifyIdToken(
        _ idToken: String
    ) throws(IdentityToolkitError) -> (user: UserRecord, signInProvider: String, payload: [String: JSONValue]) {
        guard let (_, payload) = TokenFactory.decodeJWT(idToken) else { throw .invalid("INVALID_ID_TOKEN") }
        guard let uid = payload["user_id"]?.stringValue ?? payload["sub"]?.stringValue, let user = users[uid] else {
            throw .invalid("USER_NOT_FOUND")
        }
        if let validSince = user.validSince, (payload["iat"]?.intValue ?? 0) < validSince {
            throw .invalid("TOKEN_EXPIRED")
        }
        if user.disabled { throw .invalid("USER_DISABLED") }
        let provider = payload["firebase"]?["sign_in_provider"]?.stringValue ?? "password"
        return (user, provider, payload)
    }

    func checkPassword(_ password: String) throws(IdentityToolkitError) {
        if password.count < 6 { throw .invalid("WEAK_PASSWORD : Password should be at least 6 characters") }
    }

    func checkPhoneNumber(_ phone: String, excluding uid: String?) throws(IdentityToolkitError) {
        guard phone.hasPrefix("+"), phone.count > 1 else { throw .invalid("INVALID_PHONE_NUMBER : Invalid format.") }
        if let owner = user(withPhone: phone), owner.localId != uid { throw .invalid("PHONE_NUMBER_EXISTS") }
    }

    /// Validates a `customAttributes` JSON string.
    static func checkCustomAttributes(_ text: String) throws(IdentityToolkitError) {
        guard case .object(let claims)? = try? JSONCoding.parse(text) else { throw .invalid("INVALID_CLAIMS") }
        try checkClaims(claims)
        if text.utf8.count > 1000 { throw .invalid("CLAIMS_TOO_LARGE") }
    }

    static let reservedClaims: Set<String> = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time",
        "firebase", "at_hash", "c_hash",
    ]

    static func checkClaims(_ claims: [String: JSONValue]) throws(IdentityToolkitError) {
        for key in claims.keys.sorted() where reservedClaims.contains(key) {
            throw .invalid("FORBIDDEN_CLAIM : \(key)")
        }
    }

    // MARK: Mutations shared by operations

    /// Sets a new password, its fake salt and update time, and moves `validSince`.
    func setPassword(_ password: String, on user: inout UserRecord) {
        user.password = password
        user.salt = "fakeSalt" + RandomIdentifier.make(20, from: RandomIdentifier.alphanumerics)
        user.passwordUpdatedAt = nowMilliseconds
        user.validSince = nowSeconds
    }

    /// Stores `user` and returns fresh tokens for it.
    func issueTokens(
        for user: inout UserRecord, signInProvider: String, extraClaims: [String: JSONValue] = [:],
        secondFactor: SecondFactorClaim? = nil
    ) -> IssuedTokens {
        let now = nowMilliseconds
        user.lastRefreshAt = now
        users[user.localId] = user
        let idToken = tokens.idToken(
            for: user, signInProvider: signInProvider, extraClaims: extraClaims, issuedAt: now / 1000,
            lifetime: tokenSettings.lifetime, secondFactor: secondFactor)
        let refreshToken = tokens.refreshToken(
            localId: user.localId, signInProvider: signInProvider, extraClaims: extraClaims,
            secondFactor: secondFactor, issuedAt: now)
        return IssuedTokens(idToken: idToken, refreshToken: refreshToken, expiresIn: tokenSettings.expiresIn)
    }

    func newUser(localId: String? = nil) -> UserRecord {
        var uid = localId ?? RandomIdentifier.uid()
        while localId == nil && users[uid] != nil { uid = RandomIdentifier.uid() }
        return UserRecord(localId: uid, createdAt: nowMilliseconds)
    }

    /// The `mode` of each request type's action link.
    static let actionModes = [
        "EMAIL_SIGNIN": "signIn", "PASSWORD_RESET": "resetPassword", "VERIFY_EMAIL": "verifyEmail",
        "VERIFY_AND_CHANGE_EMAIL": "verifyAndChangeEmail", "RECOVER_EMAIL": "recoverEmail",
    ]

    /// Creates and remembers an out-of-band code; returns it.
    func createOobRecord(
        email: String, requestType: String, baseURL: String, continueUrl: String?, newEmail: String? = nil,
        localId: String? = nil
    ) -> OobRecord {
        let code = RandomIdentifier.oobCode()
        let mode = Self.actionModes[requestType] ?? ""
        var link = "\(baseURL)/emulator/action?mode=\(mode)&lang=en&oobCode=\(code)&apiKey=fake-api-key"
        if let continueUrl { link += "&continueUrl=\(PercentEncoding.queryValue(continueUrl))" }
        let record = OobRecord(
            oobCode: code, email: email, requestType: requestType, oobLink: link, newEmail: newEmail, localId: localId)
        oobCodes.append(record)
        logger.debug("auth.oob.created", metadata: ["auth.oob.type": "\(requestType)"])
        return record
    }

    func oobRecord(_ code: String) -> OobRecord? { oobCodes.first { $0.oobCode == code } }

    func consumeOobCode(_ code: String) { oobCodes.removeAll { $0.oobCode == code } }

    // MARK: Tuning (Sesame extension)

    func setTokenLifetime(_ seconds: Int) { tokenSettings.lifetime = seconds }
    func setRecentLoginSeconds(_ seconds: Int) { tokenSettings.recentLoginSeconds = seconds }
    func setExpiresInText(_ text: String?) { tokenSettings.expiresInText = text }
}
