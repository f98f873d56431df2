import SesameClient

/// The advice that depends on the command, and on who may use the socket.
extension ErrorReport {
    /// The advice for `error` from the command of `context`, or nil when it is the same as
    /// from any command.
    static func advice(for error: SesameClientError.DaemonError, context: ErrorContext) -> String? {
        switch (context, error.reason) {
        case (.verifyEmail, "missing-email"):
            return "this account has no email address to verify (a guest has none): sign up or link an email first "
                + "with `sesamectl sign-up EMAIL`"
        case (.completeCode, "operation-not-allowed"):
            return "this backend (Firebase) sends sign-in links, not codes: run `sesamectl complete-link URL` "
                + "with the link from the email"
        case (.completeCode, "missing-email"):
            return "give the address the code was sent to: `sesamectl complete-link --code CODE --email EMAIL`"
        case (.reauth, "operation-not-allowed"):
            return "this backend (Firebase) mails no reauthentication codes: run `sesamectl reauth` (the password, "
                + "or the account's provider for an account without one)"
        case (.reauth, "invalid-verification-code"), (.reauth, "invalid-action-code"),
            (.reauth, "expired-action-code"):
            return "that code is not right or has expired: run `sesamectl reauth --send-code` for a new one"
        case (.changePassword, "invalid-verification-code"):
            return "the code given to `sesamectl reauth` is not right or has expired (nothing changed): "
                + "run `sesamectl reauth --send-code` for a new one, then change the password again"
        case (.resetPassword, "invalid-action-code"), (.resetPassword, "expired-action-code"):
            return "the reset link or code is not valid, was already used or has expired: "
                + "run `sesamectl reset-password EMAIL` for a new one"
        case (.signOut, "operation-not-allowed"):
            return "this backend (Firebase) cannot end other sessions from a client; nothing changed: deploy a "
                + "function that calls the Admin SDK's revokeRefreshTokens (docs/providers.md, \"Sign-out scopes\"), "
                + "or run `sesamectl sign-out` to sign out this machine only"
        case (.signInFlow(let retry), "access-denied"):
            return "the sign-in was denied at the provider: run `\(retry)` to try again"
        case (.signInFlow(let retry), "expired-sign-in-flow"):
            return "the sign-in was not approved in time: run `\(retry)` for a new code"
        case (.signInFlow(let retry), "sign-in-cancelled"):
            return "the sign-in was cancelled (another sign-in started, someone cancelled it, or sesamed "
                + "restarted): run `\(retry)` to start again"
        case (.signInFlow(let retry), "invalid-credential"):
            return "the browser came back with an answer that does not belong to this sign-in (nothing changed): "
                + "run `\(retry)` again"
        default:
            return nil
        }
    }

    /// What to do about a socket this user may not open. A socket of group root means sesamed
    /// runs without a group of its own: joining root is not the answer.
    static func permissionAdvice(path: String, group: String?) -> String {
        switch group {
        case nil:
            return "permission denied on \(path): ask an administrator for access"
        case "root"?:
            return "permission denied on \(path): sesamed's socket belongs to group root; ask the administrator "
                + "to set `socket.group` (or `access.readers`) in sesamed.toml, or run the command with sudo"
        case let group?:
            return "permission denied on \(path): join group \(group) (or ask an administrator)"
        }
    }
}
