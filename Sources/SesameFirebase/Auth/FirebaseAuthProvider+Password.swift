import SesameCore

extension FirebaseAuthProvider {
    public func signUp(
        email: String, password: String, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> SignInResult {
        let context = FirebaseCallContext(
            .signUp, sentIDToken: linkingTo != nil, fallback: .invalidCredential, email: email, providerId: "password"
        )
        // Linking with `accounts:signUp` replaces the account's display name with the request's
        // (removing it when absent; docs/firebase.md), so the current one is sent along.
        var displayName: String?
        if let linkingTo { displayName = try await lookup(linkingTo).displayName }
        let request = SignUpRequest(
            email: email, password: password, displayName: displayName, idToken: linkingTo?.rawValue)
        let answer = try await client.post(request, context: context, as: SignInResponse.self)
        return try signInResult(answer, endpoint: .signUp, isNewUser: linkingTo == nil)
    }

    public func signIn(email: String, password: String) async throws(RemoteAuthError) -> SignInResult {
        let context = FirebaseCallContext(
            .signInWithPassword, sentIDToken: false, fallback: .invalidCredential, email: email, providerId: "password"
        )
        let request = SignInWithPasswordRequest(email: email, password: password)
        let answer = try await client.post(request, context: context, as: FirstFactorAnswer<SignInResponse>.self)
            .answer()
        return try signInResult(answer, endpoint: .signInWithPassword, isNewUser: false)
    }

    public func sendPasswordReset(email: String) async throws(RemoteAuthError) {
        let context = FirebaseCallContext(.sendOobCode, sentIDToken: false, email: email)
        let request = SendOobCodeRequest(requestType: .passwordReset, email: email)
        do {
            _ = try await client.post(request, context: context, as: EmptyResponse.self)
        } catch {
            // No account enumeration: an address without an account is answered like one with an
            // account, as Firebase itself does with email-enumeration protection on (and GoTrue).
            if case .rejected(let rejection) = error, rejection.reason == .userNotFound { return }
            throw error
        }
    }

    public func sendEmailVerification(_ idToken: IDToken) async throws(RemoteAuthError) {
        let context = FirebaseCallContext(.sendOobCode, sentIDToken: true)
        let request = SendOobCodeRequest(requestType: .verifyEmail, idToken: idToken.rawValue)
        _ = try await client.post(request, context: context, as: EmptyResponse.self)
    }
}
