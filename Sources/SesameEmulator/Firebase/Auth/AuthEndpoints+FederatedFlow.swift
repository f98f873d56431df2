import Hummingbird

/// `accounts:signInWithIdp` when the credential is the fake identity provider's: a browser
/// callback (`requestUri` with `code` and `state`, plus the `sessionId` of `createAuthUri`), or
/// an opaque access token it issued (GitHub's `gho_…`). Both are resolved with the
/// ``FakeIdentityProvider`` first; the account rules are then the ID token's.
extension AuthEndpoints {
    private static func invalidIdpResponse(_ detail: String) -> IdentityToolkitError {
        .invalid("INVALID_IDP_RESPONSE : ((\(detail)))")
    }

    /// The credential the fake identity provider stands behind, or `nil` when the call carries
    /// an ordinary fake credential (strict JSON or a JWT), read by the store itself.
    static func resolveFakeIdpCredential(
        _ body: SignInWithIdpRequest, store: AccountStore, call: Call
    ) async throws(IdentityToolkitError) -> ResolvedIdpCredential? {
        let params = try AccountStore.idpParameters(body)
        let provider = call.identityProvider
        if let error = params["error"], params["id_token"] == nil, params["access_token"] == nil {
            let code = error.allSatisfy { $0.isLetter || $0 == "_" } ? error : "error"
            throw invalidIdpResponse(
                "The identity provider answered \(code): the person denied or cancelled the sign-in.")
        }
        if let code = params["code"], !code.isEmpty, params["id_token"] == nil, params["access_token"] == nil {
            guard let sessionId = body.sessionId.nonEmpty else {
                throw invalidIdpResponse("A requestUri with a code needs the sessionId that createAuthUri answered.")
            }
            guard let session = await store.idpSession(sessionId) else {
                throw invalidIdpResponse("The sessionId is unknown or has expired: call createAuthUri again.")
            }
            guard params["state"] == session.state else {
                throw invalidIdpResponse("The state in requestUri does not match the one of the sessionId.")
            }
            guard
                let tokens = try? await provider.exchange(
                    code: code, providerId: session.providerId, redirectUri: session.continueUri, codeVerifier: nil,
                    issuer: FakeIdentityProvider.issuer(base: call.baseURL, providerId: session.providerId))
            else { throw invalidIdpResponse("The authorization code is unknown, expired or already used.") }
            await store.endIdpSession(sessionId)
            return ResolvedIdpCredential(
                providerId: session.providerId, claims: tokens.identity.claims, idToken: tokens.idToken,
                accessToken: tokens.accessToken)
        }
        guard let providerId = params["providerId"].nonEmpty, params["id_token"].nonEmpty == nil,
            let accessToken = params["access_token"].nonEmpty, !accessToken.hasPrefix("{"),
            TokenFactory.decodeJWT(accessToken) == nil
        else { return nil }
        guard let identity = await provider.identity(forAccessToken: accessToken, providerId: providerId) else {
            throw invalidIdpResponse(
                "The access_token is neither strict JSON, a JWT, nor a token the emulator's fake \(providerId) issued.")
        }
        return ResolvedIdpCredential(
            providerId: providerId, claims: identity.claims, idToken: nil, accessToken: accessToken)
    }
}
