import SesameLocalAPI

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
}

/// `accounts:signInWithPassword`.
struct SignInWithPasswordRequest: IdentityToolkitRequest {
    @Field var email: String?
    @Field var password: String?
    @Field var idToken: JSONValue?
    @Field var pendingIdToken: JSONValue?
}

/// `accounts:signInWithCustomToken`.
struct SignInWithCustomTokenRequest: IdentityToolkitRequest {
    @Field var token: String?
}

/// `securetoken.googleapis.com/v1/token`: form-urlencoded or JSON, snake_case or camelCase.
struct TokenRequest: IdentityToolkitRequest {
    @Field var grantType: String?
    @Field var refreshToken: String?
}

/// `accounts:sendOobCode`. `requestType` is a name or its proto number.
struct SendOobCodeRequest: IdentityToolkitRequest {
    @Field var requestType: JSONValue?
    @Field var email: String?
    @Field var newEmail: String?
    @Field var idToken: String?
    @Field var continueUrl: String?
    @Field var returnOobLink: Bool?
    @Field var canHandleCodeInApp: Bool?
    @Field var linkDomain: String?
}

/// `accounts:signInWithEmailLink`.
struct SignInWithEmailLinkRequest: IdentityToolkitRequest {
    @Field var email: String?
    @Field var oobCode: String?
    @Field var idToken: String?
}

/// `accounts:resetPassword`.
struct ResetPasswordRequest: IdentityToolkitRequest {
    @Field var oobCode: String?
    @Field var newPassword: String?
}

/// `accounts:signInWithIdp`: the fake IdP credential travels in `requestUri` and `postBody`.
struct SignInWithIdpRequest: IdentityToolkitRequest {
    @Field var requestUri: String?
    @Field var postBody: String?
    @Field var idToken: String?
    @Field var returnIdpCredential: Bool?
    @Field var returnRefreshToken: JSONValue?
    @Field var pendingIdToken: JSONValue?
    @Field var returnSecureToken: Bool?
    /// The `sessionId` of `createAuthUri`, for a browser callback in `requestUri`.
    @Field var sessionId: String?
}

/// `v2/accounts/mfaEnrollment:start`: TOTP (`totpEnrollmentInfo: {}`) only.
struct StartMfaEnrollmentRequest: IdentityToolkitRequest {
    @Field var idToken: String?
    @Field var totpEnrollmentInfo: JSONValue?
    @Field var phoneEnrollmentInfo: JSONValue?
}

/// `v2/accounts/mfaEnrollment:finalize`: `totpVerificationInfo {sessionInfo, verificationCode}`.
struct FinalizeMfaEnrollmentRequest: IdentityToolkitRequest {
    @Field var idToken: String?
    @Field var displayName: String?
    @Field var totpVerificationInfo: JSONValue?
    @Field var phoneVerificationInfo: JSONValue?
}

/// `v2/accounts/mfaEnrollment:withdraw`.
struct WithdrawMfaRequest: IdentityToolkitRequest {
    @Field var idToken: String?
    @Field var mfaEnrollmentId: String?
}

/// `v2/accounts/mfaSignIn:finalize`: `totpVerificationInfo {verificationCode}`.
struct FinalizeMfaSignInRequest: IdentityToolkitRequest {
    @Field var mfaPendingCredential: String?
    @Field var mfaEnrollmentId: String?
    @Field var totpVerificationInfo: JSONValue?
    @Field var phoneVerificationInfo: JSONValue?
}

/// `projects/{project}:createSessionCookie` (privileged): `{idToken, validDuration}`.
struct CreateSessionCookieRequest: IdentityToolkitRequest {
    @Field var idToken: String?
    /// Seconds, as a number or an int64 string; absent or 0 means the longest, two weeks.
    @Field var validDuration: Int?
}
