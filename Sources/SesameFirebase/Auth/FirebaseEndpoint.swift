/// The Identity Toolkit and Secure Token endpoints the adapter calls (docs/firebase.md, "Endpoints").
public enum FirebaseEndpoint: String, Sendable, Hashable, CaseIterable {
    case signUp = "accounts:signUp"
    case signInWithPassword = "accounts:signInWithPassword"
    case sendOobCode = "accounts:sendOobCode"
    case signInWithEmailLink = "accounts:signInWithEmailLink"
    case signInWithIdp = "accounts:signInWithIdp"
    case signInWithCustomToken = "accounts:signInWithCustomToken"
    case createAuthUri = "accounts:createAuthUri"
    case lookup = "accounts:lookup"
    case update = "accounts:update"
    case delete = "accounts:delete"
    case resetPassword = "accounts:resetPassword"
    /// Identity Platform's multi-factor operations (v2 API).
    case mfaEnrollmentStart = "accounts/mfaEnrollment:start"
    case mfaEnrollmentFinalize = "accounts/mfaEnrollment:finalize"
    case mfaEnrollmentWithdraw = "accounts/mfaEnrollment:withdraw"
    case mfaSignInFinalize = "accounts/mfaSignIn:finalize"
    /// Secure Token's refresh grant.
    case token = "token"

    /// The secret-free name used in logs and recorded requests.
    public var name: String {
        self == .token ? "securetoken:token" : rawValue
    }

    /// Whether it is served by Identity Toolkit's v2 API (`…/v2/accounts/…`).
    public var isV2: Bool { rawValue.hasPrefix("accounts/") }
}
