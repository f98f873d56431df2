import SesameCore
import SesameHTTP

/// Turns a failed Identity Toolkit or Secure Token answer into a ``RemoteAuthError``
/// (the table is in docs/firebase.md, "Error classification").
///
/// Order: 429 and 5xx by status; then the body's code: rate-limit codes; on a refresh, the
/// codes that end the session; on a call that carried an ID token, the codes about that token
/// or its account; then the domain reason of the code, or the call's fallback for unknown
/// codes. A non-2xx answer without a readable error body is a malformed response.
enum FirebaseErrorClassifier: BackendErrorClassifier {
    static let backend = "firebase"

    static func code(of failure: HTTPFailure<FirebaseErrorEnvelope>) -> String? {
        failure.body?.code?.rawValue
    }

    /// Classifies a non-200 answer. Its `Retry-After` is carried by every rate-limit
    /// classification (429, `TOO_MANY_ATTEMPTS_TRY_LATER`, `QUOTA_EXCEEDED`).
    static func classify(
        _ failure: HTTPFailure<FirebaseErrorEnvelope>, context: FirebaseCallContext
    ) -> RemoteAuthError {
        if failure.status == 429 { return .rateLimited(retryAfterMs: failure.retryAfterMs) }
        if failure.status >= 500 { return .unavailable(status: failure.status) }
        guard let envelope = failure.body else {
            return .malformedResponse("\(context.endpoint.name): HTTP \(failure.status) without an error body")
        }
        return classify(code: envelope.code, context: context, retryAfterMs: failure.retryAfterMs)
    }

    /// Classifies an error code (from an error body, or a 200 `errorMessage` of signInWithIdp).
    static func classify(
        code: FirebaseErrorCode?, context: FirebaseCallContext, retryAfterMs: Int? = nil
    ) -> RemoteAuthError {
        guard let code else { return .rejected(AuthError(context.fallback)) }
        switch code {
        case .tooManyAttemptsTryLater, .quotaExceeded:
            return .rateLimited(retryAfterMs: retryAfterMs)
        default:
            break
        }
        if context.endpoint == .token {
            switch code {
            case .invalidRefreshToken: return .accountGone(.sessionRevoked)
            // "The user's credential is no longer valid": the password or the email changed.
            case .tokenExpired: return .accountGone(.credentialsChanged)
            case .userDisabled: return .accountGone(.userDisabled)
            case .userNotFound: return .accountGone(.userNotFound)
            default: break
            }
        }
        if context.sentIDToken {
            switch code {
            case .invalidIdToken, .tokenExpired, .missingIdToken: return .idTokenRejected
            case .userNotFound: return .accountGone(.userNotFound)
            case .userDisabled: return .accountGone(.userDisabled)
            default: break
            }
        }
        let reason = domainReason(for: code, context: context) ?? secondFactorReason(for: code) ?? context.fallback
        switch reason {
        case .emailAlreadyInUse, .credentialAlreadyInUse:
            return .rejected(AuthError(reason, email: context.email, providerId: context.providerId))
        default:
            return .rejected(AuthError(reason, message: secondFactorMessage(for: code)))
        }
    }

    /// The reason of an Identity Platform multi-factor code; nil for other codes.
    static func secondFactorReason(for code: FirebaseErrorCode) -> AuthError.Reason? {
        switch code {
        case .invalidMfaPendingCredential, .missingMfaPendingCredential, .missingCredential, .invalidSessionInfo,
            .missingSessionInfo, .sessionExpired:
            return .expiredSignInFlow
        case .invalidCode, .missingCode:
            return .invalidVerificationCode
        case .unverifiedEmail, .unsupportedFirstFactor, .secondFactorExists, .secondFactorLimitExceeded:
            return .operationNotAllowed
        case .mfaEnrollmentNotFound, .missingMfaEnrollmentId:
            return .noSuchProvider
        default:
            return nil
        }
    }

    /// What the person should do, where the reason's default sentence would mislead; nil
    /// otherwise. Never echoes the backend's detail.
    static func secondFactorMessage(for code: FirebaseErrorCode) -> String? {
        switch code {
        case .unverifiedEmail:
            "Verify your email first (sesamectl verify-email): Firebase enrols second factors only on verified addresses."
        case .unsupportedFirstFactor:
            "Second factors need an account that signs in with email, a link or a provider, not a guest or a custom token."
        case .secondFactorExists, .secondFactorLimitExceeded:
            "This account cannot take another second factor: remove one first."
        case .mfaEnrollmentNotFound, .missingMfaEnrollmentId:
            "This account has no such second factor: list them with sesamectl mfa list."
        case .invalidSessionInfo, .missingSessionInfo, .sessionExpired:
            "The authenticator enrolment expired: start it again."
        default:
            nil
        }
    }

    /// The domain reason of a known code; nil for codes the adapter does not know.
    static func domainReason(for code: FirebaseErrorCode, context: FirebaseCallContext) -> AuthError.Reason? {
        switch code {
        case .emailExists, .duplicateEmail:
            return .emailAlreadyInUse
        case .invalidPassword, .invalidLoginCredentials:
            // Like Firebase with email-enumeration protection: never say which part was wrong.
            return .invalidLoginCredentials
        case .emailNotFound:
            // A password reset for an unknown address (no enumeration protection) is worth
            // saying; at sign-in it is folded into invalid credentials.
            return context.endpoint == .sendOobCode ? .userNotFound : .invalidLoginCredentials
        case .missingPassword:
            return context.endpoint == .signUp || context.endpoint == .update ? .weakPassword : .invalidLoginCredentials
        case .weakPassword:
            return .weakPassword
        case .invalidEmail, .invalidIdentifier:
            return .invalidEmail
        case .missingEmail:
            return .missingEmail
        case .invalidOobCode, .missingOobCode:
            return .invalidActionCode
        case .expiredOobCode:
            return .expiredActionCode
        case .invalidIdpResponse, .invalidCredentialOrProviderId:
            return .invalidCredential
        case .operationNotAllowed, .passwordLoginDisabled, .adminOnlyOperation:
            return .operationNotAllowed
        case .credentialTooOldLoginAgain:
            return .requiresRecentLogin
        case .userDisabled:
            return .userDisabled
        case .userNotFound:
            return .userNotFound
        case .federatedUserIdAlreadyLinked:
            return .credentialAlreadyInUse
        case .providerAlreadyLinked:
            return .providerAlreadyLinked
        case .invalidCustomToken, .missingCustomToken, .credentialMismatch, .invalidClaims, .forbiddenClaim,
            .claimsTooLarge:
            return .invalidCustomToken
        default:
            return nil
        }
    }
}
