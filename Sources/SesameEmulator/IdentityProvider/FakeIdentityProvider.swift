import SesameLocalAPI

/// A fake OAuth 2.0 / OpenID Connect identity provider for every provider id, served under
/// `/emulator/v1/idp/<providerId>/` on the auth port and on the Supabase port: the RFC 8628
/// device flow, the authorization-code flow with PKCE, and the tokens both end in.
///
/// One actor holds every code and token, so a device code issued on one port can be approved
/// on the other, and the Firebase and GoTrue surfaces of the same emulator can find out whom an
/// authorization code or an access token stands for.
actor FakeIdentityProvider {
    let clock: EmulatorClock
    let signer = IdentityProviderSigner()

    /// Lifetime of a new device code, seconds (RFC 8628 `expires_in`; test knob).
    var deviceCodeLifetime = 900
    /// Polling interval of a new device code, seconds (RFC 8628 `interval`; test knob).
    var pollInterval = 5
    /// Device authorizations by device code.
    var devices: [String: DeviceAuthorization] = [:]
    /// Authorization codes of the browser flow.
    var grants: [String: AuthorizationGrant] = [:]
    /// Whom each access token stands for.
    var accessTokens: [String: FakeIdentity] = [:]

    static let prefix = "/emulator/v1/idp"
    /// Seconds an authorization code stays valid.
    static let authorizationCodeLifetime = 600
    /// Seconds an access or ID token says it is valid.
    static let tokenLifetime = 3600
    /// A poll this many milliseconds early still counts as on time (network jitter).
    static let pollTolerance = 250

    init(clock: EmulatorClock) { self.clock = clock }

    var now: Int { clock.milliseconds() }

    /// `<base>/emulator/v1/idp/<providerId>`, the `iss` of its ID tokens.
    static func issuer(base: String, providerId: String) -> String { base + prefix + "/" + providerId }

    // MARK: Test knobs

    /// `{"deviceCodeLifetimeSeconds","intervalSeconds"}`.
    func configuration() -> JSONValue {
        ["deviceCodeLifetimeSeconds": .int(deviceCodeLifetime), "intervalSeconds": .int(pollInterval)]
    }

    /// Changes the lifetime and interval of device codes issued from now on.
    func configure(lifetime: Int?, interval: Int?) throws(OAuthError) -> JSONValue {
        if let lifetime, lifetime < 1 || lifetime > 86_400 {
            throw .invalidRequest("deviceCodeLifetimeSeconds must be between 1 and 86400")
        }
        if let interval, interval < 0 || interval > 3600 {
            throw .invalidRequest("intervalSeconds must be between 0 and 3600")
        }
        if let lifetime { deviceCodeLifetime = lifetime }
        if let interval { pollInterval = interval }
        return configuration()
    }

    // MARK: Tokens

    /// What a successful token request hands out.
    struct TokenSet: Sendable {
        var identity: FakeIdentity
        var accessToken: String
        /// `nil` for `github.com`, which is not an OpenID Connect provider.
        var idToken: String?
        /// The RFC 6749 §5.1 answer.
        var json: JSONValue
    }

    /// Mints an access token (remembered) and, except for GitHub, a signed ID token.
    func issueTokens(
        for identity: FakeIdentity, clientId: String?, scope: String?, nonce: String?, issuer: String
    ) -> TokenSet {
        let github = identity.providerId == "github.com"
        let accessToken =
            (github ? "gho_" : "emu_at_")
            + RandomIdentifier.make(github ? 36 : 40, from: RandomIdentifier.alphanumerics)
        accessTokens[accessToken] = identity
        let scope = scope.nonEmpty ?? (github ? "read:user,user:email" : "openid email profile")
        if github {
            return TokenSet(
                identity: identity, accessToken: accessToken, idToken: nil,
                json: ["access_token": .string(accessToken), "token_type": "bearer", "scope": .string(scope)])
        }
        let iat = now / 1000
        var claims = identity.claims
        claims["iss"] = .string(issuer)
        claims["aud"] = .string(clientId.nonEmpty ?? "sesame-emulator")
        claims["iat"] = .int(iat)
        claims["exp"] = .int(iat + Self.tokenLifetime)
        claims["nonce"] = nonce.map(JSONValue.string)
        let idToken = signer.sign(claims)
        return TokenSet(
            identity: identity, accessToken: accessToken, idToken: idToken,
            json: [
                "access_token": .string(accessToken), "token_type": "Bearer",
                "expires_in": .int(Self.tokenLifetime), "scope": .string(scope), "id_token": .string(idToken),
            ])
    }

    /// Whom `accessToken` stands for, when this provider issued it for `providerId`.
    func identity(forAccessToken accessToken: String, providerId: String) -> FakeIdentity? {
        guard let identity = accessTokens[accessToken], identity.providerId == providerId else { return nil }
        return identity
    }
}
