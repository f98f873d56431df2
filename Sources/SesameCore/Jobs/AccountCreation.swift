/// `createAccount` as a pure step machine: events in, the next action out.
///
/// From a guest, the username (if any) is claimed first, durably (a `.writeDetails`
/// ``UsernameStep`` is written before the claim), then email/password is linked to the guest;
/// a failed link gives the name back. Signed out, the account is created first and the name
/// claimed for it; a lost claim deletes the new account again, so nothing changes. Once
/// adopted, the name's details record is written (or left to the durable step to retry).
///
/// Crash safety comes from the durable step: a crash anywhere after the claim leaves it in the
/// keyring, and ``UsernameStepJob`` finishes or undoes it after the restart.
public struct AccountCreation: Sendable, Hashable {
    /// Who asks.
    public enum Origin: Sendable, Hashable {
        /// An anonymous user: the account keeps its uid.
        case guest
        /// Nobody signed in: a new account.
        case nobody
    }

    public enum Action: Sendable, Hashable {
        /// Record the durable step, then claim the name for the guest.
        case claimForGuest
        /// Link email/password to the guest.
        case linkToGuest
        /// Create a new email/password account.
        case signUp
        /// Claim the name for the new account (not current yet: no durable step).
        case claimForNewAccount
        /// Make the account current (with the claimed name, if any).
        case adopt
        /// Point the name's details record at the account (retried durably on failure).
        case writeDetails
        /// Undo: give the guest's claim back.
        case releaseGuestClaim
        /// Undo: delete the account just created.
        case deleteNewAccount
        case done
        case fail(AuthError)
    }

    public enum Event: Sendable, Hashable {
        case claimed
        case claimFailed(AuthError)
        /// The backend created (or linked) the account.
        case created
        case creationFailed(AuthError)
        case adopted
        /// The details were written, or their retry is recorded.
        case detailsHandled
        /// An undo step ran (whether or not the backend confirmed it).
        case undone
    }

    public let origin: Origin
    public let claimsUsername: Bool
    private var failure: AuthError?

    public init(origin: Origin, claimsUsername: Bool) {
        self.origin = origin
        self.claimsUsername = claimsUsername
    }

    public func start() -> Action {
        switch origin {
        case .guest: claimsUsername ? .claimForGuest : .linkToGuest
        case .nobody: .signUp
        }
    }

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .claimed:
            return origin == .guest ? .linkToGuest : .adopt
        case .claimFailed(let error):
            guard origin == .nobody else { return .fail(error) }
            // The name lost a race after the sign-up: undo the sign-up so nothing changes.
            failure = error
            return .deleteNewAccount
        case .created:
            return origin == .nobody && claimsUsername ? .claimForNewAccount : .adopt
        case .creationFailed(let error):
            guard origin == .guest, claimsUsername else { return .fail(error) }
            failure = error
            return .releaseGuestClaim
        case .adopted:
            return claimsUsername ? .writeDetails : .done
        case .detailsHandled:
            return .done
        case .undone:
            return .fail(failure ?? AuthError(.backendUnavailable))
        }
    }
}
