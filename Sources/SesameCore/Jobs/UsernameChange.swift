/// `setUsername` as a pure step machine: events in, the next action out.
///
/// A new name: both durable steps are written first, in one keyring write (`.writeDetails` for
/// the new key, `.release` for the old one), then the new key is claimed, its details record
/// written, the name adopted, and the old key released. A lost race changes nothing; a claim or
/// details write that fails gives the new key back (durably: a `.release` step replaces the
/// others in one write) and keeps the old name. A details write whose answer was lost is read
/// back first: when it landed, the rename goes on. The same name in another case or form only
/// rewrites the details record.
///
/// Crash safety comes from the durable steps: whatever a crash interrupts, the keyring lists
/// what is left, and ``UsernameStepJob`` finishes or undoes it after the restart (a `.release`
/// of the old key is never done while the details record still points at it).
public struct UsernameChange: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// Change the durable step list in one keyring write.
        case updateSteps(adding: [UsernameStep], removing: [UsernameStep])
        /// Claim `key` for the account (atomically: `claimed(won: false)` when another uid holds it).
        case claim(key: String)
        /// Point the account's details record at the name.
        case writeDetails(UsernameDetails)
        /// Read the account's details record (did a write whose answer was lost land?).
        case readDetails
        /// Release `key`, held by the account; with `unlessCurrent`, not when the details record
        /// points at it.
        case release(key: String, unlessCurrent: Bool)
        /// Make the name the session's.
        case adopt(username: String)
        /// Keep the listed step and plan the maintenance loop's retry.
        case retryLater
        case done
        case fail(AuthError)
    }

    public enum Event: Sendable, Hashable {
        case stepsUpdated
        case claimed(won: Bool)
        case detailsWritten
        case detailsRead(UsernameDetails?)
        case released
        case adopted
        case retryPlanned
        /// The last backend call failed.
        case failed(AuthError)
    }

    private enum Stage: Sendable, Hashable {
        case recordSteps, claim, writeDetails, checkDetails, forgetClaim, adopt, releaseOld, forgetReleaseOld,
            retryReleaseOld
        /// Undo: the `.release` of the new key recorded, the key released, the step removed.
        case recordUndo, releaseNew, forgetUndo, retryUndo
        /// Give up without a claim to undo: the steps removed.
        case abandon
        /// The same key: only the details record and the session change.
        case sameKeyDetails, sameKeyAdopt
    }

    public let uid: String
    public let username: Username
    public let oldUsername: String?
    public let email: String?
    private var stage: Stage = .recordSteps
    private var failure: AuthError?
    /// Whether the details record may point at the new key (a write whose outcome is unknown).
    private var detailsUnknown = false

    /// - Parameters:
    ///   - uid: the signed-in account (not anonymous).
    ///   - username: the validated new name.
    ///   - oldUsername: the account's name now, if any.
    ///   - email: the account's email, for the details record.
    public init(uid: String, username: Username, oldUsername: String?, email: String?) {
        self.uid = uid
        self.username = username
        self.oldUsername = oldUsername
        self.email = email
    }

    /// The durable step for the new key (written before the claim).
    public var claimStep: UsernameStep {
        UsernameStep(kind: .writeDetails, uid: uid, key: username.key, username: username.name)
    }

    /// The durable step for the old key, when the key changes.
    public var releaseOldStep: UsernameStep? {
        guard let oldUsername else { return nil }
        let key = UsernameKey.derive(from: oldUsername)
        guard key != username.key else { return nil }
        return UsernameStep(kind: .release, uid: uid, key: key, username: oldUsername)
    }

    /// The durable step that gives the new key back.
    public var undoStep: UsernameStep {
        UsernameStep(kind: .release, uid: uid, key: username.key, username: username.name)
    }

    private var details: UsernameDetails { UsernameDetails(username: username.name, email: email) }
    private var changeSteps: [UsernameStep] { [claimStep] + (releaseOldStep.map { [$0] } ?? []) }

    public mutating func start() -> Action {
        if let oldUsername, UsernameKey.derive(from: oldUsername) == username.key {
            guard oldUsername != username.name else { return .done }
            stage = .sameKeyDetails
            return .writeDetails(details)
        }
        stage = .recordSteps
        return .updateSteps(adding: changeSteps, removing: [])
    }

    public mutating func handle(_ event: Event) -> Action {
        switch (stage, event) {
        case (.recordSteps, .stepsUpdated):
            stage = .claim
            return .claim(key: username.key)
        case (.claim, .claimed(let won)):
            guard won else { return abandon(AuthError(.usernameTaken)) }
            stage = .writeDetails
            return .writeDetails(details)
        case (.claim, .failed(let error)):
            // A claim that failed in transit may have landed: give it back. A refusal did not.
            return error.category == .backend ? undo(error) : abandon(error)
        case (.writeDetails, .detailsWritten):
            stage = .forgetClaim
            return .updateSteps(adding: [], removing: [claimStep])
        case (.writeDetails, .failed(let error)):
            guard error.category == .backend else { return undo(error) }
            // The answer was lost, not necessarily the write: read it back before undoing.
            failure = error
            stage = .checkDetails
            return .readDetails
        case (.checkDetails, .detailsRead(let record)):
            if let record, UsernameKey.derive(from: record.username) == username.key {
                // It landed: the rename goes on.
                failure = nil
                stage = .forgetClaim
                return .updateSteps(adding: [], removing: [claimStep])
            }
            return undo(failure ?? AuthError(.backendUnavailable))
        case (.checkDetails, .failed):
            // Still unknown: give the key back only if the record does not point at it.
            detailsUnknown = true
            return undo(failure ?? AuthError(.backendUnavailable))
        case (.forgetClaim, .stepsUpdated):
            stage = .adopt
            return .adopt(username: username.name)
        case (.adopt, .adopted):
            guard let releaseOldStep else { return .done }
            stage = .releaseOld
            return .release(key: releaseOldStep.key, unlessCurrent: false)
        case (.releaseOld, .released):
            stage = .forgetReleaseOld
            return .updateSteps(adding: [], removing: releaseOldStep.map { [$0] } ?? [])
        case (.releaseOld, .failed(let error)):
            // The new name is in place; the old key is given back later, or never when refused.
            guard error.category != .backend else {
                stage = .retryReleaseOld
                return .retryLater
            }
            stage = .forgetReleaseOld
            return .updateSteps(adding: [], removing: releaseOldStep.map { [$0] } ?? [])
        case (.forgetReleaseOld, .stepsUpdated), (.retryReleaseOld, .retryPlanned):
            return .done
        case (.recordUndo, .stepsUpdated):
            stage = .releaseNew
            return .release(key: username.key, unlessCurrent: detailsUnknown)
        case (.releaseNew, .released):
            stage = .forgetUndo
            return .updateSteps(adding: [], removing: [undoStep])
        case (.releaseNew, .failed):
            stage = .retryUndo
            return .retryLater
        case (.forgetUndo, .stepsUpdated), (.retryUndo, .retryPlanned), (.abandon, .stepsUpdated):
            return .fail(failure ?? AuthError(.backendUnavailable))
        case (.sameKeyDetails, .detailsWritten):
            stage = .sameKeyAdopt
            return .adopt(username: username.name)
        case (.sameKeyDetails, .failed(let error)):
            return .fail(error)
        case (.sameKeyAdopt, .adopted):
            return .done
        default:
            // An event the last action cannot produce: stop rather than guess.
            return .fail(failure ?? AuthError(.backendUnavailable))
        }
    }

    /// Keeps the old name and gives the new key back: the `.release` step replaces the change's
    /// steps in one write, then the key is released.
    private mutating func undo(_ error: AuthError) -> Action {
        failure = error
        stage = .recordUndo
        return .updateSteps(adding: [undoStep], removing: changeSteps)
    }

    /// Nothing was claimed: the change's steps are removed.
    private mutating func abandon(_ error: AuthError) -> Action {
        failure = error
        stage = .abandon
        return .updateSteps(adding: [], removing: changeSteps)
    }
}
