/// Which command an error came from, where that changes what to do next: the same protocol
/// reason (`missing-email`, `operation-not-allowed`) means different things to different commands.
enum ErrorContext: Sendable, Equatable {
    /// No command-specific advice.
    case general
    /// `verify-email`: `missing-email` means the account has no address.
    case verifyEmail
    /// `complete-link` and `link email-link` with a link.
    case completeLink
    /// `complete-link --code`: `operation-not-allowed` means the backend sends no codes.
    case completeCode
    /// `sign-in PROVIDER`: the flow's reasons say to run `retry` again.
    case signInFlow(retry: String)
    /// `reauth`: `operation-not-allowed` means the backend mails no codes.
    case reauth
    /// `reset-password --complete`: a spent link or code needs a new reset email.
    case resetPassword
    /// `change-password`: `invalid-verification-code` is the code `reauth` held for it.
    case changePassword
    /// `sign-out`: `operation-not-allowed` means the backend cannot end other sessions.
    case signOut
}
