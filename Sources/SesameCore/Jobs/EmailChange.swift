/// `changeEmail` (verify before change) as a pure step machine, and what follows once the
/// owner of the new address confirms it.
///
/// Request: the backend mails the new address (`request`); the address is remembered durably
/// for the account (`remember`: Firebase reports no pending address, so the keyring keeps it,
/// per uid, until the account's email is it); the session's user shows it as `pendingEmail`
/// (`show`, a `userUpdated`).
///
/// Confirmation (a profile lookup shows the new address as the email): the username record's
/// email follows (`syncUsernameRecord`, when the account has a username), then the remembered
/// address is forgotten (`forget`).
///
/// Crash points: before `remember` the backend may have mailed the address but the daemon
/// does not show it as pending; once the owner confirms, the next lookup shows the new email
/// and the username record follows by its own stale-record check. After `remember`, a restart
/// shows it again at the next lookup. After a confirmation's `syncUsernameRecord` and before
/// `forget`, the next lookup runs the confirmation again (both steps are idempotent).
public struct EmailChange: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// Ask the backend to mail `newEmail` a confirmation.
        case request(String)
        /// Remember `newEmail` durably for the account.
        case remember(String)
        /// Show `newEmail` as the user's `pendingEmail`.
        case show(String)
        /// Write the account's (new) email into its username record.
        case syncUsernameRecord
        /// Forget the remembered address.
        case forget
        case done
        case fail(AuthError)
    }

    public enum Event: Sendable, Hashable {
        case requested
        case remembered
        case shown
        case synced
        case forgotten
        case failed(AuthError)
    }

    private enum Stage: Sendable, Hashable {
        case request, remember, show, sync, forget
    }

    public let newEmail: String
    public let hasUsername: Bool
    private var stage: Stage = .request

    /// - Parameters:
    ///   - newEmail: the address asked for.
    ///   - hasUsername: whether the account has a username record whose email must follow.
    public init(newEmail: String, hasUsername: Bool) {
        self.newEmail = newEmail
        self.hasUsername = hasUsername
    }

    /// The request: the backend mails the new address.
    public mutating func start() -> Action {
        stage = .request
        return .request(newEmail)
    }

    /// The confirmation: a lookup showed `newEmail` as the account's email.
    public mutating func confirm() -> Action {
        guard hasUsername else {
            stage = .forget
            return .forget
        }
        stage = .sync
        return .syncUsernameRecord
    }

    public mutating func handle(_ event: Event) -> Action {
        switch (stage, event) {
        case (.request, .requested):
            stage = .remember
            return .remember(newEmail)
        case (.remember, .remembered):
            stage = .show
            return .show(newEmail)
        case (.show, .shown), (.forget, .forgotten):
            return .done
        case (.sync, .synced):
            stage = .forget
            return .forget
        case (.request, .failed(let error)):
            return .fail(error.reason == .emailAlreadyInUse && error.email == nil ? inUse(error) : error)
        case (.sync, .failed(let error)):
            // The address stays remembered: the next lookup tries again.
            return .fail(error)
        default:
            return .fail(AuthError(.backendUnavailable))
        }
    }

    private func inUse(_ error: AuthError) -> AuthError {
        var error = error
        error.email = newEmail
        return error
    }
}

extension EmailChange: StepMachine {
    public static func failed(_ error: AuthError) -> Event { .failed(error) }
}
