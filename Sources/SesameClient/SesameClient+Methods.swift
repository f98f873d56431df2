import SesameLocalAPI

/// One typed method per method of the protocol (PROTOCOL.md, Methods). Each throws
/// ``SesameClientError`` (``SesameClientError/reason`` is the protocol's `data.reason`) or
/// `CancellationError`.
extension SesameClient {
    /// Who the daemon is and which role it gives this process. Anyone may call it.
    public func hello() async throws -> SesameHello {
        try SesameHello.decode(try await call(.hello, ["client": .string(engine.clientName)]))
    }

    /// The current state (observer).
    public func state() async throws -> SesameState {
        try SesameState.decode(try await call(.getState))
    }

    /// An ID token for your backend (reader).
    /// - Parameters:
    ///   - forceRefresh: get a new token even when the held one is still valid.
    ///   - minValidity: seconds the token must stay valid (the daemon's default is 300).
    ///   - uid: the `fromUid` of a pending merge, to read that guest's data (manager).
    public func idToken(
        forceRefresh: Bool = false, minValidity: Int? = nil, uid: String? = nil
    ) async throws
        -> SesameIDToken
    {
        var params: [String: JSONValue] = [:]
        if forceRefresh { params["forceRefresh"] = true }
        if let minValidity { params["minValidity"] = .integer(Int64(minValidity)) }
        if let uid { params["uid"] = .string(uid) }
        return try SesameIDToken.decode(try await call(.getIdToken, params))
    }

    /// Creates the anonymous user when signed out; returns the state when already anonymous.
    /// - Throws: `already-signed-in` when an account is signed in.
    public func signInAnonymously() async throws -> SesameState {
        try SesameState.decode(try await call(.signInAnonymously))
    }

    /// Creates an email and password account: an anonymous user is upgraded in place (its uid
    /// stays), a signed-out daemon signs up.
    /// - Throws: `email-already-in-use` (sign in instead), `weak-password`, `invalid-email`,
    ///   the username reasons, `already-signed-in`.
    public func createAccount(email: String, password: String, username: String? = nil) async throws -> SesameState {
        var params: [String: JSONValue] = ["email": .string(email), "password": .string(password)]
        if let username { params["username"] = .string(username) }
        return try SesameState.decode(try await call(.createAccount, params))
    }

    /// Signs in with an email or a username and a password. From an anonymous user this
    /// records a ``SesameMerge`` of the guest's data into the account.
    /// - Throws: `invalid-login-credentials`, `user-not-found`, `user-disabled`, …
    public func signIn(identifier: String, password: String) async throws -> (state: SesameState, merge: SesameMerge?) {
        try SesameState.decodeWithMerge(
            try await call(.signIn, ["identifier": .string(identifier), "password": .string(password)]))
    }

    /// Sends a sign-in link to `email`; returns the address it was sent to.
    public func sendSignInLink(email: String, continueUrl: String? = nil) async throws -> String {
        var params: [String: JSONValue] = ["email": .string(email)]
        if let continueUrl { params["continueUrl"] = .string(continueUrl) }
        let result = try await call(.sendSignInLink, params)
        return result["email"]?.stringValue ?? email
    }

    /// Completes a sign-in link. `email` is needed only when the link was not requested through
    /// this daemon.
    /// - Throws: `missing-email`, `invalid-action-code`, `expired-action-code`, …
    public func completeSignInLink(
        link: String, email: String? = nil
    ) async throws
        -> (state: SesameState, merge: SesameMerge?)
    {
        var params: [String: JSONValue] = ["link": .string(link)]
        if let email { params["email"] = .string(email) }
        return try SesameState.decodeWithMerge(try await call(.completeSignInLink, params))
    }

    /// Completes a passwordless sign-in with the one-time code of a sign-in email, where the
    /// backend mails codes (Supabase).
    /// - Throws: `operation-not-allowed` on a backend without codes (Firebase),
    ///   `invalid-action-code`, `expired-action-code`, …
    public func completeSignInLink(
        email: String, code: String
    ) async throws
        -> (state: SesameState, merge: SesameMerge?)
    {
        try SesameState.decodeWithMerge(
            try await call(.completeSignInLink, ["email": .string(email), "code": .string(code)]))
    }

    /// Signs in with a federated identity (`google.com`, `apple.com`, …) from the provider's ID
    /// token or access token.
    public func signInWithIdp(
        providerId: String, idToken: String? = nil, accessToken: String? = nil
    ) async throws
        -> (state: SesameState, merge: SesameMerge?)
    {
        var params: [String: JSONValue] = ["providerId": .string(providerId)]
        if let idToken { params["idToken"] = .string(idToken) }
        if let accessToken { params["accessToken"] = .string(accessToken) }
        return try SesameState.decodeWithMerge(try await call(.signInWithIdp, params))
    }

    /// Adds a sign-in method to the current user.
    /// - Throws: `credential-already-in-use`, `email-already-in-use`, `provider-already-linked`.
    public func linkCredential(_ credential: SesameCredential) async throws -> SesameState {
        try SesameState.decode(try await call(.linkCredential, ["credential": credential.json]))
    }

    /// Removes a sign-in method (`password` removes both email ways).
    /// - Throws: `no-such-provider`.
    public func unlink(providerId: String) async throws -> SesameState {
        try SesameState.decode(try await call(.unlink, ["providerId": .string(providerId)]))
    }

    /// Signs out; with anonymous first the daemon then creates a fresh guest. Signing out an
    /// anonymous user deletes its data and needs `reset: true`.
    /// - Throws: `requires-reset-confirmation`, `no-current-user`.
    public func signOut(reset: Bool = false) async throws -> SesameState {
        try SesameState.decode(try await call(.signOut, reset ? ["reset": true] : [:]))
    }

    /// Deletes the signed-in account at the backend.
    /// - Throws: `requires-recent-login`, `no-current-user`.
    public func deleteAccount() async throws -> SesameState {
        try SesameState.decode(try await call(.deleteAccount))
    }

    /// Reads the user's profile from the backend again (e.g. after verifying the email).
    public func reload() async throws -> SesameState {
        try SesameState.decode(try await call(.reload))
    }

    /// Changes the display name.
    public func updateProfile(displayName: String?) async throws -> SesameState {
        try SesameState.decode(try await call(.updateProfile, ["displayName": .optional(displayName)]))
    }

    /// Sends a password-reset email to the account of an email or username.
    public func sendPasswordReset(identifier: String) async throws {
        _ = try await call(.sendPasswordReset, ["identifier": .string(identifier)])
    }

    /// Sends a verification email to the current user's address.
    public func sendEmailVerification() async throws {
        _ = try await call(.sendEmailVerification)
    }

    /// Claims a username for the signed-in account and releases the old one.
    /// - Throws: `requires-account`, `invalid-username`, `username-taken`, `username-reserved`.
    public func setUsername(_ username: String) async throws -> SesameState {
        try SesameState.decode(try await call(.setUsername, ["username": .string(username)]))
    }

    /// Whether a username may be claimed (observer).
    public func checkUsername(_ username: String) async throws -> SesameUsernameAvailability {
        try SesameUsernameAvailability.decode(try await call(.checkUsername, ["username": .string(username)]))
    }

    /// Tells the daemon the guest's data of `mergeId` has moved; it then deletes the guest.
    /// - Throws: `no-such-merge`.
    public func completeMerge(mergeId: String) async throws -> SesameState {
        try SesameState.decode(try await call(.completeMerge, ["mergeId": .string(mergeId)]))
    }
}
