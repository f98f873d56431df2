import SesameCore

extension FirebaseAuthProvider {
    public func sendSignInLink(email: String, continueUrl: String?) async throws(RemoteAuthError) {
        let context = FirebaseCallContext(.sendOobCode, sentIDToken: false, email: email)
        let request = SendOobCodeRequest(
            requestType: .emailSignIn, email: email,
            continueUrl: continueUrl ?? configuration.defaultContinueUrl, canHandleCodeInApp: true
        )
        _ = try await client.post(request, context: context, as: EmptyResponse.self)
    }

    /// Spends `actionCode`. Sent once, never retried: the backend consumes the code even when
    /// the call fails, so after a transport failure the caller must check the session (a
    /// lookup) rather than send the code again.
    public func signIn(email: String, actionCode: String, linkingTo: IDToken?) async throws(RemoteAuthError) -> SignInResult {
        let context = FirebaseCallContext(
            .signInWithEmailLink, sentIDToken: linkingTo != nil, fallback: .invalidCredential,
            email: email, providerId: "password"
        )
        let request = SignInWithEmailLinkRequest(email: email, oobCode: actionCode, idToken: linkingTo?.rawValue)
        let answer = try await client.post(request, context: context, as: SignInResponse.self)
        return try signInResult(answer, endpoint: .signInWithEmailLink, isNewUser: answer.isNewUser ?? false)
    }
}
