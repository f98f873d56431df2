/// Finishing one durable username step (``UsernameStep``) as a pure step machine: events in,
/// the next action out.
///
/// A step is written to the keyring before the directory write it stands for, and removed
/// after; a crash anywhere between leaves it listed, and the maintenance loop runs this job for
/// it again. Every action is safe to repeat: a claim is checked before its details are written,
/// a release never gives up the name the account's details point at.
public struct UsernameStepJob: Sendable, Hashable {
    /// The signed-in account, as far as the job needs it.
    public struct Account: Sendable, Hashable {
        public var uid: String
        public var isAnonymous: Bool
        public var email: String?

        public init(uid: String, isAnonymous: Bool, email: String?) {
            self.uid = uid
            self.isAnonymous = isAnonymous
            self.email = email
        }
    }

    public enum Action: Sendable, Hashable {
        /// Read who holds `key`.
        case readOwner(key: String)
        /// Point the account's details record at the name (with the account's email).
        case writeDetails(UsernameDetails)
        /// Record `release` durably in place of the step (before releasing).
        case replaceWithRelease(UsernameStep)
        /// Release `key` if the uid holds it; with `unlessCurrent`, not when its details point at it.
        case release(key: String, unlessCurrent: Bool)
        /// The claim landed and its details are written: the account now has this username.
        case adopt(username: String)
        /// Remove these steps from the durable list: the job is over.
        case finish([UsernameStep])
        /// The directory cannot be reached: keep the step, try again after a pause.
        case retryLater
    }

    public enum Event: Sendable, Hashable {
        case owner(String?)
        case detailsWritten
        case replaced
        case released
        case adopted
        /// The directory refused for good (not a backend outage).
        case refused
        /// The directory could not be reached.
        case unreachable
    }

    public let step: UsernameStep
    private var release: UsernameStep?

    public init(_ step: UsernameStep) {
        self.step = step
    }

    /// The first action, given who is signed in now.
    public mutating func start(signedIn account: Account?) -> Action {
        guard let account, account.uid == step.uid else {
            // No token for that account any more: nothing can be written in its name.
            return .finish([step])
        }
        self.account = account
        switch step.kind {
        case .writeDetails: return .readOwner(key: step.key)
        case .release: return .release(key: step.key, unlessCurrent: true)
        }
    }

    private var account: Account?

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .owner(let owner):
            guard owner == step.uid, let account else {
                // The claim never landed: the change it belonged to did not happen.
                return .finish([step])
            }
            if account.isAnonymous {
                // A sign-up that claimed the name first and then never linked: give it back.
                let release = UsernameStep(kind: .release, uid: step.uid, key: step.key, username: step.username)
                self.release = release
                return .replaceWithRelease(release)
            }
            return .writeDetails(UsernameDetails(username: step.username, email: account.email))
        case .replaced:
            return .release(key: step.key, unlessCurrent: false)
        case .detailsWritten:
            return .adopt(username: step.username)
        case .adopted:
            return .finish([step])
        case .released:
            return .finish([release ?? step])
        case .refused:
            return .finish([release ?? step])
        case .unreachable:
            return .retryLater
        }
    }
}
