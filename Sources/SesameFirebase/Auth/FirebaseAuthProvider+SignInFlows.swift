import Foundation
import Logging
import SesameCore
import SesameHTTP

extension FirebaseAuthProvider {
    /// Firebase signs in with a provider's ID token or its access token: every provider will do.
    public func checkFederatedSignIn(providerId: String, yieldsIDToken: Bool) throws(RemoteAuthError) {}

    /// `accounts:createAuthUri {providerId, continueUri: redirectUri}`: Firebase builds the
    /// provider's authorization URL (with its own client and `state`) and a `sessionId` that
    /// finishes the sign-in. The `state` is read from the URL's query; a URL without one leaves
    /// it empty, and then the callback's `state` cannot be checked against anything.
    public func startBrowserSignIn(
        providerId: String, redirectUri: String
    ) async throws(RemoteAuthError) -> BrowserSignInStart {
        let context = FirebaseCallContext(.createAuthUri, sentIDToken: false, providerId: providerId)
        let request = CreateProviderAuthUriRequest(providerId: providerId, continueUri: redirectUri)
        let answer: CreateAuthUriResponse
        do {
            answer = try await client.post(request, context: context, as: CreateAuthUriResponse.self)
        } catch .rejected(let error) where error.reason == .operationNotAllowed {
            throw .unsupported(
                "Browser sign-in with \(providerId) is not enabled for this Firebase project: enable the provider in Authentication > Sign-in method and add 127.0.0.1 to the authorized domains (see docs/providers.md)."
            )
        }
        guard let authUri = answer.authUri, !authUri.isEmpty, let sessionId = answer.sessionId, !sessionId.isEmpty
        else {
            throw .malformedResponse("\(FirebaseEndpoint.createAuthUri.name): no authUri or sessionId")
        }
        return BrowserSignInStart(
            providerId: providerId, redirectUri: redirectUri, authorizationUrl: authUri,
            state: CallbackQuery(authUri).value("state") ?? "", backendSecret: sessionId)
    }

    /// `accounts:signInWithIdp {requestUri: callbackUrl, sessionId, returnIdpCredential,
    /// returnSecureToken, idToken: linkingTo}`: Firebase exchanges the provider's code itself.
    /// A callback with `error=access_denied` is `access-denied`, any other `error`
    /// `invalid-credential`, without a call. Linking onto an identity (or email) that another
    /// account owns answers 200 with `errorMessage` and the provider's tokens: that is
    /// ``BrowserSignInCompletion/belongsToAnotherAccount(_:_:)``.
    public func completeBrowserSignIn(
        _ start: BrowserSignInStart, callbackUrl: String, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> BrowserSignInCompletion {
        let callback = CallbackQuery(callbackUrl)
        if let error = callback.value("error") {
            throw .rejected(
                AuthError(error == "access_denied" ? .accessDenied : .invalidCredential, providerId: start.providerId))
        }
        let context = FirebaseCallContext(
            .signInWithIdp, sentIDToken: linkingTo != nil, fallback: .invalidCredential, providerId: start.providerId)
        let request = SignInWithIdpRequest(
            requestUri: callbackUrl, postBody: nil, sessionId: start.backendSecret, idToken: linkingTo?.rawValue)
        let answer = try await client.post(
            request, context: context, as: FirstFactorAnswer<SignInWithIdpResponse>.self
        ).answer()
        let providerId = answer.providerId ?? start.providerId
        if let message = answer.errorMessage, answer.oauthIdToken != nil || answer.oauthAccessToken != nil,
            case .rejected(let error) = idpRefusal(
                message, context: context, email: answer.email.flatMap { $0.isEmpty ? nil : $0 }, providerId: providerId
            ),
            error.reason == .credentialAlreadyInUse || error.reason == .emailAlreadyInUse
        {
            let credential = FederatedCredential(
                providerId: providerId, idToken: answer.oauthIdToken, accessToken: answer.oauthAccessToken)
            return .belongsToAnotherAccount(credential, error)
        }
        return .signedIn(try await signInResult(idp: answer, context: context, providerId: start.providerId))
    }

    /// `accounts:signInWithCustomToken {token, returnSecureToken}`. A malformed, expired or
    /// refused token (`INVALID_CUSTOM_TOKEN`, `MISSING_CUSTOM_TOKEN`, `CREDENTIAL_MISMATCH`,
    /// `INVALID_CLAIMS`, …) is `invalid-custom-token`. The uid is the answer's `localId`, else
    /// the new ID token's (production answers carry none).
    public func signIn(customToken: String) async throws(RemoteAuthError) -> SignInResult {
        let token = customToken.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw .rejected(AuthError(.invalidCustomToken)) }
        let context = FirebaseCallContext(.signInWithCustomToken, sentIDToken: false, fallback: .invalidCustomToken)
        let answer = try await client.post(
            SignInWithCustomTokenRequest(token: token), context: context,
            as: FirstFactorAnswer<SignInWithCustomTokenResponse>.self
        ).answer()
        guard let uid = answer.localId.flatMap({ $0.isEmpty ? nil : $0 }) ?? JWTClaims.userId(of: answer.idToken),
            !answer.refreshToken.isEmpty
        else {
            throw .malformedResponse("\(FirebaseEndpoint.signInWithCustomToken.name): no uid or refreshToken")
        }
        return SignInResult(
            uid: uid,
            idToken: try tokens.make(
                rawValue: answer.idToken, expiresIn: answer.expiresIn.value, endpoint: .signInWithCustomToken),
            refreshToken: RefreshToken(answer.refreshToken), isNewUser: answer.isNewUser ?? false)
    }
}
