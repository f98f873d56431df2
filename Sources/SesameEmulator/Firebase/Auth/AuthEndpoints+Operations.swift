import Hummingbird

extension AuthEndpoints {
    /// Every operation of the Auth port's Identity Toolkit and Secure Token surface, one
    /// Hummingbird route per path each (see ``IdentityToolkitOperation``).
    static let operations: [IdentityToolkitOperation] =
        [
            IdentityToolkitOperation(
                name: "accounts", paths: [IdentityToolkitOperation.v1Project + "accounts"], method: .post,
                privilegedOnly: false, honoursBearer: true
            ) { store, call throws(IdentityToolkitError) in
                .json(try await store.signUp(call.body(SignUpRequest.self), privileged: call.privileged))
            },
            .accounts("accounts:signUp", v3: "signupNewUser") { store, call throws(IdentityToolkitError) in
                .json(try await store.signUp(call.body(SignUpRequest.self), privileged: call.privileged))
            },
            .accounts("accounts:signInWithPassword", v3: "verifyPassword") { store, call throws(IdentityToolkitError) in
                .json(try await store.signInWithPassword(call.body(SignInWithPasswordRequest.self)))
            },
            .accounts("accounts:sendOobCode", v3: "getOobConfirmationCode") {
                store, call throws(IdentityToolkitError) in
                .json(
                    try await store.sendOobCode(
                        call.body(SendOobCodeRequest.self), privileged: call.privileged, baseURL: call.baseURL))
            },
            .accounts("accounts:signInWithEmailLink", v3: "emailLinkSignin") {
                store, call throws(IdentityToolkitError) in
                .json(try await store.signInWithEmailLink(call.body(SignInWithEmailLinkRequest.self)))
            },
            .accounts("accounts:signInWithIdp", v3: "verifyAssertion") { store, call throws(IdentityToolkitError) in
                let body = try call.body(SignInWithIdpRequest.self)
                let resolved = try await AuthEndpoints.resolveFakeIdpCredential(body, store: store, call: call)
                return .json(try await store.signInWithIdp(body, resolved: resolved))
            },
            .accounts("accounts:signInWithCustomToken", v3: "verifyCustomToken") {
                store, call throws(IdentityToolkitError) in
                .json(try await store.signInWithCustomToken(call.body(SignInWithCustomTokenRequest.self)))
            },
            .accounts("accounts:update", v3: "setAccountInfo") { store, call throws(IdentityToolkitError) in
                .json(try await store.update(call.body(UpdateRequest.self), privileged: call.privileged))
            },
            .accounts("accounts:lookup", v3: "getAccountInfo") { store, call throws(IdentityToolkitError) in
                .json(try await store.lookup(call.body(LookupRequest.self), privileged: call.privileged))
            },
            .accounts("accounts:delete", v3: "deleteAccount") { store, call throws(IdentityToolkitError) in
                .json(try await store.delete(call.body(DeleteRequest.self), privileged: call.privileged))
            },
            .accounts("accounts:createAuthUri", v3: "createAuthUri") { store, call throws(IdentityToolkitError) in
                .json(try await store.createAuthUri(call.body(CreateAuthUriRequest.self), baseURL: call.baseURL))
            },
            .accounts("accounts:resetPassword", v3: "resetPassword") { store, call throws(IdentityToolkitError) in
                .json(try await store.resetPassword(call.body(ResetPasswordRequest.self)))
            },
            IdentityToolkitOperation(
                name: "token", paths: ["/securetoken.googleapis.com/v1/token"], method: .post, privilegedOnly: false,
                honoursBearer: false
            ) { store, call throws(IdentityToolkitError) in
                .json(try await store.grantToken(call.body(TokenRequest.self)))
            },
            .accounts("accounts:batchDelete", privilegedOnly: true) { store, call throws(IdentityToolkitError) in
                .json(try await store.batchDelete(call.body(BatchDeleteRequest.self)))
            },
            .accounts("accounts:batchGet", method: .get, privilegedOnly: true) {
                store, call throws(IdentityToolkitError) in
                .json(try await store.batchGet(call.body(BatchGetRequest.self)))
            },
            .accounts("accounts:query", privilegedOnly: true) { store, call throws(IdentityToolkitError) in
                .json(try await store.query(call.body(QueryRequest.self)))
            },
            IdentityToolkitOperation(
                name: "createSessionCookie",
                paths: [IdentityToolkitOperation.v1 + "projects/{project}:createSessionCookie"],
                method: .post, privilegedOnly: true, honoursBearer: true
            ) { store, call throws(IdentityToolkitError) in
                .json(try await store.createSessionCookie(call.body(CreateSessionCookieRequest.self)))
            },
            .accounts("accounts:batchCreate", v3: "uploadAccount", privilegedOnly: true) {
                store, call throws(IdentityToolkitError) in
                .json(try await store.batchCreate(call.body(BatchCreateRequest.self)))
            },
        ] + secondFactorOperations + disabledFeatures.map(IdentityToolkitOperation.disabled)

    /// Identity Platform's TOTP second factors, at the v2 paths (and the v1 names the
    /// emulator answered before, for the call counters).
    static let secondFactorOperations: [IdentityToolkitOperation] = [
        .multiFactor("mfaEnrollment:start") { store, call throws(IdentityToolkitError) in
            .json(try await store.mfaEnrollmentStart(call.body(StartMfaEnrollmentRequest.self)))
        },
        .multiFactor("mfaEnrollment:finalize") { store, call throws(IdentityToolkitError) in
            .json(try await store.mfaEnrollmentFinalize(call.body(FinalizeMfaEnrollmentRequest.self)))
        },
        .multiFactor("mfaEnrollment:withdraw") { store, call throws(IdentityToolkitError) in
            .json(try await store.mfaEnrollmentWithdraw(call.body(WithdrawMfaRequest.self)))
        },
        .multiFactor("mfaSignIn:finalize") { store, call throws(IdentityToolkitError) in
            .json(try await store.mfaSignInFinalize(call.body(FinalizeMfaSignInRequest.self)))
        },
    ]

    /// An Identity Toolkit operation of a feature this emulator does not have, and the 400
    /// Identity Toolkit answers for it in a project where that feature is turned off.
    struct DisabledFeature: Sendable {
        /// The v1 name, also the call counter's name.
        let name: String
        let paths: [String]
        let message: String

        init(_ name: String, v2 v2Path: String? = nil, _ message: String) {
            self.name = name
            self.paths =
                [IdentityToolkitOperation.v1 + name, IdentityToolkitOperation.v1Project + name]
                + (v2Path.map { ["/identitytoolkit.googleapis.com/v2/" + $0] } ?? [])
            self.message = message
        }
    }

    static let phoneProviderOff = "OPERATION_NOT_ALLOWED"
    static let multiFactorOff = "OPERATION_NOT_ALLOWED : SMS based MFA not enabled."
    static let identityProviderOff = "OPERATION_NOT_ALLOWED : The identity provider configuration is not found."

    /// Every operation the emulator does not serve (docs/emulator.md lists them): the phone
    /// provider, SMS multi-factor, Game Center and Apple token revocation are disabled
    /// providers; SAML has no configuration.
    static let disabledFeatures: [DisabledFeature] = [
        DisabledFeature("accounts:sendVerificationCode", phoneProviderOff),
        DisabledFeature("accounts:signInWithPhoneNumber", phoneProviderOff),
        DisabledFeature("accounts:verifyIosClient", phoneProviderOff),
        // TOTP needs no `mfaSignIn:start` (that step sends an SMS): the other MFA operations are
        // served (``AuthEndpoints/secondFactorOperations``).
        DisabledFeature("accounts:mfaSignIn:start", v2: "accounts/mfaSignIn:start", multiFactorOff),
        DisabledFeature("accounts:signInWithGameCenter", identityProviderOff),
        DisabledFeature("accounts:revokeToken", identityProviderOff),
        DisabledFeature("accounts:issueSamlResponse", "CONFIGURATION_NOT_FOUND"),
    ]
}
