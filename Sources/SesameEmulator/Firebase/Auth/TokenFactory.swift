import SesameCore
import SesameLocalAPI

/// Mints and reads the emulator's tokens.
///
/// ID tokens are unsigned JWTs (`{"alg":"none","typ":"JWT"}`, empty signature, so they end in
/// `.`). Refresh tokens are standard base64 of
/// `{"_AuthEmulatorRefreshToken":"DO NOT MODIFY","localId",…}`, deterministic and never expiring.
struct TokenFactory: Sendable {
    let projectId: String

    static let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))

    /// An ID token for `user`.
    /// - Parameters:
    ///   - signInProvider: `firebase.sign_in_provider` (`anonymous`, `password`, `custom`, an IdP id).
    ///   - extraClaims: custom-token claims, merged at top level.
    ///   - issuedAt: `iat`, seconds since 1970.
    ///   - lifetime: seconds until `exp`.
    func idToken(
        for user: UserRecord, signInProvider: String, extraClaims: [String: JSONValue], issuedAt: Int, lifetime: Int,
        secondFactor: SecondFactorClaim? = nil
    ) -> String {
        var claims: [String: JSONValue] = [:]
        claims["name"] = user.displayName.map(JSONValue.string)
        claims["picture"] = user.photoUrl.map(JSONValue.string)
        if let custom = user.customAttributes, case .object(let o)? = try? JSONCoding.parse(custom) {
            for (k, v) in o { claims[k] = v }
        }
        for (k, v) in extraClaims { claims[k] = v }
        claims["email"] = user.email.map(JSONValue.string)
        claims["email_verified"] = user.emailVerified.map(JSONValue.bool)
        claims["phone_number"] = user.phoneNumber.map(JSONValue.string)
        if signInProvider == "anonymous" { claims["provider_id"] = "anonymous" }
        claims["auth_time"] = .int((user.lastLoginAt ?? user.createdAt) / 1000)
        claims["user_id"] = .string(user.localId)
        var identities: [String: [JSONValue]] = [:]
        if let email = user.email { identities["email"] = [.string(email)] }
        for provider in user.providerUserInfo where provider.providerId != "password" {
            identities[provider.providerId, default: []].append(.string(provider.rawId))
        }
        var firebase: [String: JSONValue] = [
            "identities": .object(identities.mapValues(JSONValue.array)), "sign_in_provider": .string(signInProvider),
        ]
        if let secondFactor {
            firebase["sign_in_second_factor"] = .string(secondFactor.provider)
            firebase["second_factor_identifier"] = .string(secondFactor.identifier)
        }
        claims["firebase"] = .object(firebase)
        claims["iat"] = .int(issuedAt)
        claims["exp"] = .int(issuedAt + lifetime)
        claims["aud"] = .string(projectId)
        claims["iss"] = .string("https://securetoken.google.com/\(projectId)")
        claims["sub"] = .string(user.localId)
        let payload = Base64URL.encode(JSONValue.object(claims).serialized())
        return "\(Self.header).\(payload)."
    }

    /// The refresh token for a session of `localId`.
    /// `issuedAt` (milliseconds) lets an applied email change refuse older refresh tokens.
    func refreshToken(
        localId: String, signInProvider: String, extraClaims: [String: JSONValue],
        secondFactor: SecondFactorClaim? = nil, issuedAt: Int? = nil
    ) -> String {
        let body = RefreshTokenPayload(
            marker: "DO NOT MODIFY", localId: localId, provider: signInProvider, extraClaims: extraClaims,
            projectId: projectId, secondFactor: secondFactor, issuedAt: issuedAt)
        return Base64URL.standard(JSONCoding.encodedBytes(body))
    }

    /// The JSON inside a refresh token, as Google's emulator writes it.
    struct RefreshTokenPayload: Codable, Sendable {
        var marker: String
        var localId: String
        var provider: String?
        var extraClaims: [String: JSONValue]?
        var projectId: String
        var secondFactor: SecondFactorClaim?
        /// Sesame extension: when it was issued (milliseconds since 1970).
        var issuedAt: Int?

        enum CodingKeys: String, CodingKey {
            case marker = "_AuthEmulatorRefreshToken", localId, provider, extraClaims, projectId, secondFactor
            case issuedAt = "_sesameIssuedAt"
        }
    }

    /// Decodes a refresh token; `nil` when it does not decode or lacks the marker.
    func decodeRefreshToken(_ token: String) -> RefreshTokenPayload? {
        Base64URL.decode(token).flatMap { try? JSONCoding.decode(RefreshTokenPayload.self, from: $0) }
    }

    /// A session cookie made from a verified ID token's claims, as Google's emulator mints it: an
    /// unsigned JWT like the emulator's ID tokens, with every claim of the ID token but a fresh
    /// `iat`, `exp = iat + validDuration` and the session issuer.
    /// - Parameters:
    ///   - claims: the ID token's payload.
    ///   - issuedAt: seconds since 1970.
    ///   - validDuration: seconds the cookie lives.
    func sessionCookie(from claims: [String: JSONValue], issuedAt: Int, validDuration: Int) -> String {
        var payload = claims
        payload["iat"] = .int(issuedAt)
        payload["exp"] = .int(issuedAt + validDuration)
        payload["iss"] = .string("https://session.firebase.google.com/\(projectId)")
        return "\(Self.header).\(Base64URL.encode(JSONValue.object(payload).serialized()))."
    }

    /// Decodes any JWT's header and payload without checking a signature; `nil` when the text
    /// is not three dot-separated base64url segments holding JSON objects.
    static func decodeJWT(_ token: String) -> (header: [String: JSONValue], payload: [String: JSONValue])? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            case .object(let header)? = try? JSONCoding.parse(headerBytes),
            case .object(let payload)? = try? JSONCoding.parse(payloadBytes)
        else { return nil }
        return (header, payload)
    }
}
