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

    /// Firebase sends links, never codes on their own: a link must be a sign-in action link
    /// (``EmailActionLink``); a code is `unsupported`.
    public func checkSignInProof(_ proof: EmailSignInProof) throws(RemoteAuthError) {
        _ = try actionCode(of: proof)
    }

    /// Spends the link's code. Sent once, never retried: the backend consumes the code even when
    /// the call fails, so after a transport failure the caller must check the session (a
    /// lookup) rather than send the code again.
    public func signIn(
        email: String, proof: EmailSignInProof, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> SignInResult {
        let actionCode = try actionCode(of: proof)
        let context = FirebaseCallContext(
            .signInWithEmailLink, sentIDToken: linkingTo != nil, fallback: .invalidCredential,
            email: email, providerId: "password"
        )
        let request = SignInWithEmailLinkRequest(email: email, oobCode: actionCode, idToken: linkingTo?.rawValue)
        let answer = try await client.post(request, context: context, as: FirstFactorAnswer<SignInResponse>.self)
            .answer()
        return try signInResult(answer, endpoint: .signInWithEmailLink, isNewUser: answer.isNewUser ?? false)
    }
}

extension FirebaseAuthProvider {
    /// The `oobCode` of a sign-in link.
    func actionCode(of proof: EmailSignInProof) throws(RemoteAuthError) -> String {
        switch proof {
        case .link(let text):
            guard let link = EmailActionLink(text), link.isSignIn else {
                throw .rejected(
                    AuthError(
                        .invalidActionCode, message: "That is not a sign-in link: paste the whole link from the email.")
                )
            }
            return link.oobCode
        case .code:
            throw .unsupported("Firebase sends sign-in links, not codes: complete with the whole link from the email.")
        }
    }
}
