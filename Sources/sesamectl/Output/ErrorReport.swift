import Foundation
import SesameClient

/// What `sesamectl` says when a command fails: one line for standard error and an exit status.
struct ErrorReport: Sendable, Equatable {
    var message: String
    var status: ExitStatus

    /// The report for an error of ``SesameClient``.
    /// - Parameters:
    ///   - error: what the call threw.
    ///   - socketPath: the socket the command used, named when the daemon cannot be reached.
    ///   - context: the command, where its advice differs.
    static func make(
        for error: SesameClientError, socketPath: String, context: ErrorContext = .general
    ) -> ErrorReport {
        switch error {
        case .daemonUnreachable(let path, let detail) where detail.lowercased().contains("temporarily unavailable"):
            // EAGAIN: sesamed runs, but the queue of connections waiting for it is full.
            return ErrorReport(
                message: "sesamed at \(path) is not taking connections now: the queue of connections waiting for it "
                    + "is full (a program may be opening connections faster than it takes them); try again in a moment",
                status: .unavailable)
        case .daemonUnreachable(let path, let detail):
            return ErrorReport(
                message: "cannot reach sesamed at \(path) (\(detail)): start it with `systemctl start sesamed.socket` "
                    + "(`systemctl --user start sesamed.socket` for your user instance, or `make run` in a checkout), "
                    + "or pass --socket PATH",
                status: .unavailable)
        case .permissionDenied(let path, let group):
            return ErrorReport(message: permissionAdvice(path: path, group: group), status: .unavailable)
        case .noAnswer(let path, let timeout):
            return ErrorReport(
                message: "sesamed at \(path) did not answer within \(secondsWords(timeout)): "
                    + "check `systemctl status sesamed` and `journalctl -u sesamed`, or wait longer with --timeout SECONDS",
                status: .unavailable)
        case .connectionClosed:
            return ErrorReport(
                message:
                    "sesamed at \(socketPath) closed the connection before answering: check `systemctl status sesamed`, then retry",
                status: .unavailable)
        case .protocolError(let detail):
            return ErrorReport(
                message:
                    "sesamed at \(socketPath) sent something that is not protocol (\(detail)): is it a sesamed of the same version?",
                status: .failure)
        case .daemon(let daemonError):
            return ErrorReport(
                message: advice(for: daemonError, context: context) ?? advice(for: daemonError), status: .failure)
        }
    }

    /// "5 s", "0.5 s".
    static func secondsWords(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        if attoseconds == 0 { return "\(whole) s" }
        let milliseconds = (Double(whole) * 1000 + Double(attoseconds) / 1e15).rounded()
        return "\(milliseconds / 1000) s"
    }

    /// A sentence that says what to do next for a daemon error; the daemon's own message for
    /// reasons without a better one.
    static func advice(for error: SesameClientError.DaemonError) -> String {
        let email = error.email ?? "EMAIL"
        switch error.reason {
        case "email-already-in-use":
            return "that email has an account: run `sesamectl sign-in \(email)`; your guest data will be merged into it"
        case "credential-already-in-use":
            let provider = error.providerId ?? "PROVIDER"
            return
                "that \(provider) identity belongs to another account: run `sesamectl sign-in-idp \(provider) …` to sign in to it; your guest data will be merged into it"
        case "account-exists-with-different-credential":
            let methods =
                (error.providers ?? []).isEmpty ? "another method" : (error.providers ?? []).joined(separator: ", ")
            return
                "\(email) already has an account that signs in with \(methods): sign in that way, then add this one with `sesamectl link …`"
        case "invalid-email":
            return "that is not a valid email address: check it and try again"
        case "weak-password":
            return "the password is too weak: choose a longer one (at least 6 characters)"
        case "invalid-login-credentials":
            return "wrong email, username or password: try again, or run `sesamectl reset-password EMAIL|USERNAME`"
        case "user-not-found", "username-not-found":
            return "no account has that email or username: check it, or create one with `sesamectl sign-up EMAIL`"
        case "user-disabled":
            return "that account is disabled: ask the project's administrator"
        case "invalid-action-code":
            return "the link or code is not valid or was already used: run `sesamectl send-link \(email)` for a new one"
        case "expired-action-code":
            return "the link or code has expired: run `sesamectl send-link \(email)` for a new one"
        case "missing-email":
            return "sesamed does not know the address of this link (it forgets it once a link for it is used): "
                + "if the link was already used, run `sesamectl send-link EMAIL` for a new one; "
                + "else add `--email EMAIL` (the address it was sent to)"
        case "access-denied":
            return "the sign-in was denied at the provider: run `sesamectl sign-in PROVIDER` to try again"
        case "expired-sign-in-flow":
            return "the sign-in was not approved in time: run `sesamectl sign-in PROVIDER` for a new code"
        case "sign-in-cancelled":
            return "the sign-in was cancelled: run `sesamectl sign-in PROVIDER` to start again"
        case "invalid-custom-token":
            return "the custom token is malformed, expired or was refused (the session is unchanged): "
                + "ask your project's server for a new one"
        case "requires-recent-login":
            return "this needs a recent sign-in: run `sesamectl reauth`, then run this command again"
        case "second-factor-required":
            return "this account has a second factor: sign in at a terminal and type the code from your "
                + "authenticator app when asked (or pipe it in with --code-stdin)"
        case "invalid-verification-code":
            return "that code is not right: type the code your authenticator app shows now (codes change every 30 s)"
        case "provider-already-linked":
            return "that sign-in method is already linked to this account: nothing to do"
        case "no-such-provider":
            return "the account has no such sign-in method: `sesamectl status` lists its providers"
        case "invalid-username":
            return "that username is not valid (3 to 32 letters, digits, `_`, `-` or `.`): choose another"
        case "username-taken":
            return "that username is taken: choose another (`sesamectl username check NAME` tells which are free)"
        case "username-reserved":
            return "that username is reserved: choose another"
        case "no-current-user":
            return "nobody is signed in: sign in with `sesamectl sign-in EMAIL|USERNAME`, or wait for sesamed "
                + "to create a guest once the backend can be reached (`sesamectl status` shows connectivity)"
        case "requires-account":
            return "a guest cannot do this: create an account first with `sesamectl sign-up EMAIL`"
        case "already-signed-in":
            return "an account is signed in (sesamed never switches accounts behind its back): "
                + "run `sesamectl sign-out` first, then sign in"
        case "requires-reset-confirmation":
            return "signing out a guest deletes its data: run `sesamectl sign-out --reset` if that is what you want"
        case "no-such-merge":
            return "there is no pending merge with that id: `sesamectl merges list` shows them"
        case "session-revoked":
            return "the backend no longer knows the signed-in account (deleted, disabled or signed out elsewhere); "
                + "sesamed has started a new guest session: run the command again, or sign in to an account "
                + "with `sesamectl sign-in EMAIL|USERNAME`"
        case "credentials-changed":
            if let address = error.email {
                return "the account's email address changed to \(address), which ended its session here; sesamed "
                    + "has started a guest session: sign in with `sesamectl sign-in \(address)`"
            }
            return "the account's password or email address changed (here or elsewhere), which ended its session "
                + "here; sesamed has started a guest session: sign in again with the new one "
                + "(`sesamectl sign-in EMAIL|USERNAME`)"
        case "permission-denied":
            let role = error.requiredRole ?? "a higher"
            return
                "this needs the \(role) role on sesamed: ask the administrator to grant it in [access] of sesamed.toml"
        case "method-not-found":
            return "this sesamed does not support that yet (method-not-found): upgrade sesamed"
        case "too-many-connections":
            return "sesamed has too many connections: try again later"
        default:
            if error.code == 2000 {
                let wait = error.retryAfterMs.map { " in \(max(1, ($0 + 999) / 1000)) s" } ?? " later"
                if error.reason == "too-many-requests" {
                    // The backend answered: it limits how often this may be done (a second mail
                    // within a minute, say). Not an outage.
                    return "the backend limits how often this can be done (too-many-requests): try again\(wait)"
                }
                return "the backend cannot be reached right now (\(error.reason)): try again\(wait)"
            }
            return "\(error.message) (\(error.reason))"
        }
    }
}
