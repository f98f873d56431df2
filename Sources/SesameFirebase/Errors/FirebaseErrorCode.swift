/// A server error code of Identity Toolkit or Secure Token: the leading `[A-Z0-9_]+` run of
/// `error.message` (docs/firebase.md, "Endpoints").
///
/// Open (`RawRepresentable`): unknown codes are kept as they are, and classified by the
/// fallback of the call that received them.
public struct FirebaseErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// Parses the code out of an `error.message` such as `EMAIL_EXISTS`,
    /// `WEAK_PASSWORD : Password should be at least 6 characters`, `CODE: detail` or
    /// `CODE ((hint))`. Nil when the message does not start with a code (e.g. a sentence such
    /// as `The request is missing a valid API key.`).
    public init?(message: String) {
        let scalars = message.unicodeScalars
        var end = scalars.startIndex
        while end < scalars.endIndex, Self.isCodeScalar(scalars[end]) {
            end = scalars.index(after: end)
        }
        guard end > scalars.startIndex else { return nil }
        if end < scalars.endIndex {
            // The run must end at a separator, not inside a word ("The request …" is not "T").
            let next = scalars[end]
            guard next == " " || next == ":" || next == "(" else { return nil }
        }
        rawValue = String(scalars[scalars.startIndex..<end])
    }

    /// The detail after the code and its separator (` : `, `: ` or ` `), if any. Never shown to
    /// people or logged: some details echo input.
    public static func detail(of message: String) -> String? {
        guard let code = FirebaseErrorCode(message: message) else { return nil }
        let rest = message.dropFirst(code.rawValue.count)
            .drop(while: { $0 == " " || $0 == ":" })
        return rest.isEmpty ? nil : String(rest)
    }

    public var description: String { rawValue }

    private static func isCodeScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }
}

extension FirebaseErrorCode {
    public static let emailExists = Self(rawValue: "EMAIL_EXISTS")
    public static let duplicateEmail = Self(rawValue: "DUPLICATE_EMAIL")
    public static let emailNotFound = Self(rawValue: "EMAIL_NOT_FOUND")
    public static let invalidPassword = Self(rawValue: "INVALID_PASSWORD")
    public static let invalidLoginCredentials = Self(rawValue: "INVALID_LOGIN_CREDENTIALS")
    public static let missingPassword = Self(rawValue: "MISSING_PASSWORD")
    public static let weakPassword = Self(rawValue: "WEAK_PASSWORD")
    public static let invalidEmail = Self(rawValue: "INVALID_EMAIL")
    public static let invalidIdentifier = Self(rawValue: "INVALID_IDENTIFIER")
    public static let missingEmail = Self(rawValue: "MISSING_EMAIL")
    public static let invalidOobCode = Self(rawValue: "INVALID_OOB_CODE")
    public static let missingOobCode = Self(rawValue: "MISSING_OOB_CODE")
    public static let expiredOobCode = Self(rawValue: "EXPIRED_OOB_CODE")
    public static let invalidIdpResponse = Self(rawValue: "INVALID_IDP_RESPONSE")
    public static let invalidCredentialOrProviderId = Self(rawValue: "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    public static let operationNotAllowed = Self(rawValue: "OPERATION_NOT_ALLOWED")
    public static let passwordLoginDisabled = Self(rawValue: "PASSWORD_LOGIN_DISABLED")
    public static let adminOnlyOperation = Self(rawValue: "ADMIN_ONLY_OPERATION")
    public static let credentialTooOldLoginAgain = Self(rawValue: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    public static let userDisabled = Self(rawValue: "USER_DISABLED")
    public static let userNotFound = Self(rawValue: "USER_NOT_FOUND")
    public static let federatedUserIdAlreadyLinked = Self(rawValue: "FEDERATED_USER_ID_ALREADY_LINKED")
    public static let providerAlreadyLinked = Self(rawValue: "PROVIDER_ALREADY_LINKED")
    public static let invalidIdToken = Self(rawValue: "INVALID_ID_TOKEN")
    public static let missingIdToken = Self(rawValue: "MISSING_ID_TOKEN")
    public static let tokenExpired = Self(rawValue: "TOKEN_EXPIRED")
    public static let invalidRefreshToken = Self(rawValue: "INVALID_REFRESH_TOKEN")
    public static let tooManyAttemptsTryLater = Self(rawValue: "TOO_MANY_ATTEMPTS_TRY_LATER")
    public static let quotaExceeded = Self(rawValue: "QUOTA_EXCEEDED")
    public static let invalidCustomToken = Self(rawValue: "INVALID_CUSTOM_TOKEN")
    public static let missingCustomToken = Self(rawValue: "MISSING_CUSTOM_TOKEN")
    public static let credentialMismatch = Self(rawValue: "CREDENTIAL_MISMATCH")
    public static let invalidClaims = Self(rawValue: "INVALID_CLAIMS")
    public static let forbiddenClaim = Self(rawValue: "FORBIDDEN_CLAIM")
    public static let claimsTooLarge = Self(rawValue: "CLAIMS_TOO_LARGE")
    // Identity Platform multi-factor (v2).
    public static let invalidMfaPendingCredential = Self(rawValue: "INVALID_MFA_PENDING_CREDENTIAL")
    public static let missingMfaPendingCredential = Self(rawValue: "MISSING_MFA_PENDING_CREDENTIAL")
    public static let missingCredential = Self(rawValue: "MISSING_CREDENTIAL")
    public static let invalidCode = Self(rawValue: "INVALID_CODE")
    public static let missingCode = Self(rawValue: "MISSING_CODE")
    public static let invalidSessionInfo = Self(rawValue: "INVALID_SESSION_INFO")
    public static let missingSessionInfo = Self(rawValue: "MISSING_SESSION_INFO")
    public static let sessionExpired = Self(rawValue: "SESSION_EXPIRED")
    public static let unverifiedEmail = Self(rawValue: "UNVERIFIED_EMAIL")
    public static let unsupportedFirstFactor = Self(rawValue: "UNSUPPORTED_FIRST_FACTOR")
    public static let mfaEnrollmentNotFound = Self(rawValue: "MFA_ENROLLMENT_NOT_FOUND")
    public static let missingMfaEnrollmentId = Self(rawValue: "MISSING_MFA_ENROLLMENT_ID")
    public static let secondFactorExists = Self(rawValue: "SECOND_FACTOR_EXISTS")
    public static let secondFactorLimitExceeded = Self(rawValue: "SECOND_FACTOR_LIMIT_EXCEEDED")
}
