/// Typed bodies of the sign-in and token operations (reference §4.1–§4.5, §4.10–§4.12).

/// `accounts:signUp` and, privileged, `projects/{p}/accounts`.
struct SignUpRequest: IdentityToolkitRequest {
    @Field var email: String?
    @Field var password: String?
    @Field var idToken: String?
    @Field var displayName: String?
    @Field var photoUrl: String?
    @Field var localId: String?
    @Field var phoneNumber: String?
    @Field var emailVerified: Bool?
    @Field var disabled: Bool?
    @Field var tenantId: JSON?
    @Field var targetProjectId: JSON?
}

/// `accounts:signInWithPassword`.
struct SignInWithPasswordRequest: IdentityToolkitRequest {
    @Field var email: String?
    @Field var password: String?
    @Field var idToken: JSON?
    @Field var pendingIdToken: JSON?
    @Field var tenantId: JSON?
    @Field var targetProjectId: JSON?
}

/// `accounts:signInWithCustomToken`.
struct SignInWithCustomTokenRequest: IdentityToolkitRequest {
    @Field var token: String?
    @Field var tenantId: JSON?
    @Field var targetProjectId: JSON?
}

/// `securetoken.googleapis.com/v1/token`: form-urlencoded or JSON, snake_case or camelCase.
struct TokenRequest: IdentityToolkitRequest {
    @Field var grantType: String?
    @Field var refreshToken: String?
    @Field var tenantId: JSON?
    @Field var targetProjectId: JSON?
}

/// `accounts:sendOobCode`. `requestType` is a name or its proto number.
struct SendOobCodeRequest: IdentityToolkitRequest {
    @Field var requestType: JSON?
    @Field var email: String?
    @Field var newEmail: String?
    @Field var idToken: String?
    @Field var continueUrl: String?
    @Field var returnOobLink: Bool?
    @Field var canHandleCodeInApp: Bool?
    @Field var tenantId: JSON?
    @Field var targetProjectId: JSON?
}

/// `accounts:signInWithEmailLink`.
struct SignInWithEmailLinkRequest: IdentityToolkitRequest {
    @Field var email: String?
    @Field var oobCode: String?
    @Field var idToken: String?
    @Field var tenantId: JSON?
    @Field var targetProjectId: JSON?
}

/// `accounts:resetPassword`.
struct ResetPasswordRequest: IdentityToolkitRequest {
    @Field var oobCode: String?
    @Field var newPassword: String?
    @Field var tenantId: JSON?
    @Field var targetProjectId: JSON?
}

/// `accounts:signInWithIdp`: the fake IdP credential travels in `requestUri` and `postBody`.
struct SignInWithIdpRequest: IdentityToolkitRequest {
    @Field var requestUri: String?
    @Field var postBody: String?
    @Field var idToken: String?
    @Field var returnIdpCredential: Bool?
    @Field var returnRefreshToken: JSON?
    @Field var pendingIdToken: JSON?
    @Field var returnSecureToken: Bool?
    @Field var tenantId: JSON?
    @Field var targetProjectId: JSON?
}
