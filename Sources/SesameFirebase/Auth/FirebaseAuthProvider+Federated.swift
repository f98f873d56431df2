import Logging
import SesameCore
import SesameHTTP

extension FirebaseAuthProvider {
    /// Signs in with (or links) a federated identity through `accounts:signInWithIdp`.
    ///
    /// Sends `requestUri: http://localhost`, `postBody: providerId=…&id_token=…&access_token=…`,
    /// `returnIdpCredential: true` and `returnSecureToken: true`. A 200 answer is checked for
    /// `needConfirmation` (→ `account-exists-with-different-credential`, with the sign-in
    /// methods of the email from `createAuthUri`, else the answer's `verifiedProvider`) and for
    /// `errorMessage` (`FEDERATED_USER_ID_ALREADY_LINKED` → `credential-already-in-use`,
    /// `EMAIL_EXISTS` → `email-already-in-use`, both with the email and provider) before tokens
    /// are read.
    public func signIn(
        federated: FederatedCredential, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> SignInResult {
        var fields = [("providerId", federated.providerId)]
        if let idToken = federated.idToken, !idToken.isEmpty { fields.append(("id_token", idToken)) }
        if let accessToken = federated.accessToken, !accessToken.isEmpty {
            fields.append(("access_token", accessToken))
        }
        guard !federated.providerId.isEmpty, fields.count > 1 else {
            throw .rejected(AuthError(.invalidCredential, providerId: federated.providerId))
        }
        let context = FirebaseCallContext(
            .signInWithIdp, sentIDToken: linkingTo != nil, fallback: .invalidCredential,
            providerId: federated.providerId
        )
        let request = SignInWithIdpRequest(
            requestUri: Self.localRequestUri, postBody: PercentEncoding.form(fields), idToken: linkingTo?.rawValue
        )
        let answer = try await client.post(
            request, context: context, as: FirstFactorAnswer<SignInWithIdpResponse>.self
        ).answer()
        return try await signInResult(idp: answer, context: context, providerId: federated.providerId)
    }

    /// The result of a signInWithIdp answer: `needConfirmation` and a 200 `errorMessage` are
    /// thrown as refusals (with the email and provider), else its tokens are read.
    func signInResult(
        idp answer: SignInWithIdpResponse, context: FirebaseCallContext, providerId requested: String
    ) async throws(RemoteAuthError) -> SignInResult {
        let email = answer.email.flatMap { $0.isEmpty ? nil : $0 }
        let providerId = answer.providerId ?? requested

        if answer.needConfirmation == true {
            client.logger.debug(
                "firebase call refused",
                metadata: ["firebase.endpoint": "accounts:signInWithIdp", "firebase.error_code": "needConfirmation"])
            throw .rejected(
                AuthError(
                    .accountExistsWithDifferentCredential, email: email, providerId: providerId,
                    providers: await existingSignInMethods(email: email, verifiedProvider: answer.verifiedProvider)
                )
            )
        }
        if let message = answer.errorMessage {
            throw idpRefusal(message, context: context, email: email, providerId: providerId)
        }
        guard let localId = answer.localId, !localId.isEmpty, let idToken = answer.idToken,
            let refreshToken = answer.refreshToken, !refreshToken.isEmpty, let expiresIn = answer.expiresIn
        else {
            throw .malformedResponse("\(FirebaseEndpoint.signInWithIdp.name): missing localId or tokens")
        }
        return SignInResult(
            uid: localId,
            idToken: try tokens.make(rawValue: idToken, expiresIn: expiresIn.value, endpoint: .signInWithIdp),
            refreshToken: RefreshToken(refreshToken),
            isNewUser: answer.isNewUser ?? false
        )
    }

    /// The refusal of a 200 answer's `errorMessage`, logged by its code only.
    func idpRefusal(
        _ message: String, context: FirebaseCallContext, email: String?, providerId: String
    ) -> RemoteAuthError {
        let code = FirebaseErrorCode(message: message)
        client.logger.debug(
            "firebase call refused",
            metadata: [
                "firebase.endpoint": "accounts:signInWithIdp", "firebase.error_code": "\(code?.rawValue ?? "-")",
            ]
        )
        var conflict = context
        conflict.email = email
        conflict.providerId = providerId
        return FirebaseErrorClassifier.classify(code: code, context: conflict)
    }

    /// The sign-in methods of the account that owns `email`, best effort: `createAuthUri`,
    /// else `verifiedProvider`, else empty (the backend hides them).
    private func existingSignInMethods(email: String?, verifiedProvider: [String]?) async -> [String] {
        if let email, let methods = try? await signInMethods(forEmail: email), !methods.isEmpty {
            return methods
        }
        return verifiedProvider ?? []
    }

    public func signInMethods(forEmail email: String) async throws(RemoteAuthError) -> [String]? {
        let context = FirebaseCallContext(.createAuthUri, sentIDToken: false, fallback: .invalidEmail, email: email)
        let request = CreateAuthUriRequest(identifier: email, continueUri: Self.localRequestUri)
        let answer = try await client.post(request, context: context, as: CreateAuthUriResponse.self)
        if let methods = answer.signinMethods { return methods }
        // An unregistered email may come back as `registered: false` with the empty lists
        // omitted; only when `registered` is missing too are the methods hidden.
        return answer.registered == nil ? nil : []
    }
}
