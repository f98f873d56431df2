import NIOHTTP1
import SesameCore
import SesameHTTP

/// Turns a failed GoTrue or PostgREST answer into a ``RemoteAuthError`` (the table is in
/// `docs/providers.md`).
///
/// Order: 429 and 5xx by status; then the code: rate-limit codes; `conflict` (a refresh lock
/// timeout: try again); on a refresh, the codes that end the session; on a call that carried
/// the access token, the codes about that token or its session; then the domain reason of the
/// code, or the call's fallback for unknown codes. A non-2xx answer without a readable error is
/// a malformed response.
enum SupabaseErrorClassifier: BackendErrorClassifier {
    /// What to deploy for a missing delete function.
    static let deployDeleteFunction =
        "Deleting an account on Supabase needs a database function: deploy the delete_user function (see docs/providers.md), or set supabase.delete_function to the one you deployed."
    static let deployUsernameLookups =
        "The username lookup functions are missing: run the second SQL block of \"Deploying the Supabase side\" in docs/providers.md (public.username_owner and public.username_details_of)."
    static let deployUsernameTables =
        "The username directory tables are missing: deploy public.usernames and public.username_details (see docs/providers.md)."

    static let backend = "supabase"

    /// The body's code, else the `x-sb-error-code` header's (which GoTrue also sends).
    static func code(of failure: HTTPFailure<SupabaseErrorBody>) -> String? {
        let header = failure.headers.first(name: "x-sb-error-code").flatMap { $0.isEmpty ? nil : $0 }
        guard let body = failure.body else { return header }
        return body.code(header: header)
    }

    /// Classifies a non-2xx answer. A rate limit waits for `Retry-After`, else for the seconds
    /// GoTrue's message states.
    static func classify(_ failure: HTTPFailure<SupabaseErrorBody>, context: SupabaseCallContext) -> RemoteAuthError {
        let status = failure.status
        let retryAfterMs = failure.retryAfterMs ?? failure.body?.waitSeconds.map { $0 * 1000 }
        if status == 429 { return .rateLimited(retryAfterMs: retryAfterMs) }
        if status >= 500 { return .unavailable(status: status) }
        let code = Self.code(of: failure)
        guard failure.body != nil || code != nil else {
            return .malformedResponse("\(context.name): HTTP \(status) without an error body")
        }
        guard let code else { return .rejected(AuthError(context.fallback)) }
        switch code {
        case "over_request_rate_limit", "over_email_send_rate_limit", "over_sms_send_rate_limit":
            return .rateLimited(retryAfterMs: retryAfterMs)
        case "conflict":
            return .unavailable(status: status)
        default:
            break
        }
        if context.isRefresh {
            switch code {
            case "refresh_token_not_found", "refresh_token_already_used", "session_not_found", "session_expired",
                "validation_failed", "invalid_grant", "invalid_request":
                return .accountGone(.sessionRevoked)
            case "user_banned": return .accountGone(.userDisabled)
            case "user_not_found": return .accountGone(.userNotFound)
            default: break
            }
        }
        if context.sentUserToken {
            switch code {
            case "bad_jwt", "no_authorization", "PGRST301", "PGRST303": return .idTokenRejected
            case "session_not_found", "session_expired": return .accountGone(.sessionRevoked)
            case "user_not_found": return .accountGone(.userNotFound)
            case "user_banned": return .accountGone(.userDisabled)
            default: break
            }
        }
        switch code {
        case "PGRST202" where context.name.hasPrefix("rest.lookup"): return .unsupported(deployUsernameLookups)
        case "PGRST202": return .unsupported(deployDeleteFunction)
        case "PGRST205", "42P01": return .unsupported(deployUsernameTables)
        default: break
        }
        if code == "validation_failed" || code == "bad_json" {
            return .rejected(AuthError(context.validationReason ?? context.fallback))
        }
        guard let error = domainError(for: code, context: context) else {
            return .rejected(AuthError(context.fallback))
        }
        return .rejected(error)
    }

    /// The domain error of a known code; nil for codes the adapter does not know.
    static func domainError(for code: String, context: SupabaseCallContext) -> AuthError? {
        switch code {
        case "user_already_exists", "email_exists":
            return AuthError(.emailAlreadyInUse, email: context.email, providerId: context.providerId)
        case "identity_already_exists":
            return AuthError(.credentialAlreadyInUse, email: context.email, providerId: context.providerId)
        case "invalid_credentials":
            return AuthError(.invalidLoginCredentials)
        case "weak_password":
            return AuthError(.weakPassword)
        case "same_password":
            return AuthError(
                .weakPassword, message: "The new password is the same as the current one: choose a different one.")
        case "email_address_invalid":
            return AuthError(.invalidEmail)
        case "email_not_confirmed":
            return AuthError(
                .operationNotAllowed,
                message: "That email address is not confirmed yet: open the confirmation email, then try again.")
        case "user_banned":
            return AuthError(.userDisabled)
        case "user_not_found":
            return AuthError(.userNotFound)
        case "identity_not_found":
            return AuthError(.noSuchProvider)
        case "flow_state_expired":
            return AuthError(.expiredSignInFlow)
        case "otp_expired":
            return AuthError(
                .invalidActionCode, message: "That code or link is wrong, expired or already used: request a new one.")
        case "reauthentication_needed":
            return AuthError(.requiresRecentLogin)
        case "anonymous_provider_disabled":
            return AuthError(
                .operationNotAllowed,
                message:
                    "Anonymous sign-ins are disabled for this Supabase project: enable them in Authentication > Sign In / Providers."
            )
        case "signup_disabled", "otp_disabled":
            return AuthError(
                .operationNotAllowed,
                message:
                    "New sign-ups are disabled for this Supabase project: enable them, or sign in to an existing account."
            )
        case "email_provider_disabled", "provider_disabled":
            return AuthError(
                .operationNotAllowed,
                message:
                    "That sign-in method is not enabled for this Supabase project: enable it in Authentication > Sign In / Providers."
            )
        case "manual_linking_disabled":
            return AuthError(
                .operationNotAllowed,
                message:
                    "Linking and unlinking identities is disabled for this Supabase project: enable manual linking.")
        case "23505":
            return AuthError(.usernameTaken)
        case "42501":
            return AuthError(
                .operationNotAllowed,
                message:
                    "The database refused the request (row-level security): check the policies in docs/providers.md.")
        default:
            return secondFactorError(for: code)
        }
    }

    /// The codes of GoTrue's `/factors` and of reauthentication (docs/providers.md).
    static func secondFactorError(for code: String) -> AuthError? {
        switch code {
        case "reauthentication_not_valid":
            return AuthError(
                .invalidVerificationCode,
                message: "That reauthentication code is wrong or expired: request a new one (sesamectl reauth).")
        case "mfa_verification_failed", "mfa_challenge_expired", "mfa_ip_address_mismatch":
            return AuthError(.invalidVerificationCode)
        case "mfa_verification_rejected":
            return AuthError(
                .invalidVerificationCode, message: "The project refused that verification: try again later.")
        case "mfa_factor_not_found":
            return AuthError(.noSuchProvider, message: "That second factor is not enrolled on this account.")
        case "insufficient_aal":
            return AuthError(
                .requiresRecentLogin,
                message: "This needs a session verified with the account's second factor: sign in again with it.")
        case "mfa_factor_name_conflict":
            return AuthError(
                .operationNotAllowed,
                message: "An authenticator with that name is already enrolled: choose another name.")
        case "too_many_enrolled_mfa_factors":
            return AuthError(
                .operationNotAllowed, message: "The account has the most second factors allowed: remove one first.")
        case "mfa_totp_enroll_not_enabled", "mfa_totp_verify_not_enabled":
            return AuthError(
                .operationNotAllowed,
                message:
                    "Authenticator apps (TOTP) are not enabled for this Supabase project: enable them in Authentication > Multi-Factor."
            )
        default:
            return nil
        }
    }
}
