import Crypto
import SesameCore

/// The authorization-code flow (RFC 6749 §4.1) with PKCE (RFC 7636).
extension FakeIdentityProvider {
    /// What the authorize page carries from the client's request to its approval.
    struct AuthorizationRequest: Sendable {
        var clientId: String?
        var redirectUri: String
        var state: String?
        var scope: String?
        var nonce: String?
        var codeChallenge: String?
        var codeChallengeMethod: String?
    }

    /// The PKCE code challenge of `verifier` (RFC 7636 §4.2): itself (`plain`) or its `S256`.
    static func pkceChallenge(of verifier: String, plain: Bool) -> String {
        plain ? verifier : Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
    }

    /// Issues a single-use authorization code for `identity`.
    func authorize(providerId: String, request: AuthorizationRequest, identity: FakeIdentity) -> String {
        let at = now
        grants = grants.filter { $0.value.expiresAt > at }
        let code = RandomIdentifier.make(43, from: RandomIdentifier.urlSafe)
        grants[code] = AuthorizationGrant(
            providerId: providerId, identity: identity, request: request,
            expiresAt: at + Self.authorizationCodeLifetime * 1000)
        return code
    }

    /// Exchanges an authorization code (spent by this call, whatever its outcome).
    /// - Parameters:
    ///   - redirectUri: must equal the authorize request's when given.
    ///   - codeVerifier: checked against the request's `code_challenge` when it had one.
    /// - Throws: `invalid_grant` for an unknown, used, expired or mismatched code or a wrong verifier.
    func exchange(
        code: String, providerId: String, redirectUri: String?, codeVerifier: String?, issuer: String
    ) throws(OAuthError) -> TokenSet {
        guard let grant = grants.removeValue(forKey: code), grant.providerId == providerId else {
            throw .invalidGrant("The authorization code is unknown or was already used.")
        }
        if now >= grant.expiresAt { throw .invalidGrant("The authorization code has expired.") }
        let request = grant.request
        if let redirectUri, redirectUri != request.redirectUri {
            throw .invalidGrant("redirect_uri does not match the authorization request.")
        }
        if let challenge = request.codeChallenge {
            guard let verifier = codeVerifier, !verifier.isEmpty else {
                throw .invalidGrant("code_verifier is required: the authorization request had a code_challenge.")
            }
            let plain = request.codeChallengeMethod?.uppercased() == "PLAIN"
            if Self.pkceChallenge(of: verifier, plain: plain) != challenge {
                throw .invalidGrant("PKCE verification failed: wrong code_verifier.")
            }
        }
        return issueTokens(
            for: grant.identity, clientId: request.clientId, scope: request.scope, nonce: request.nonce, issuer: issuer)
    }
}
