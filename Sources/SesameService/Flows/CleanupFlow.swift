import Foundation
import Logging
import SesameCore

/// How the cleanup run performs each action of one item's ``CleanupJob``. Its outcome is the
/// failure to retry later, or nil once the item is off the list.
struct CleanupFlow {
    typealias Step = StepResult<CleanupJob.Event, RemoteAuthError?>

    let item: CleanupJob.Item

    func perform(_ action: CleanupJob.Action, in host: isolated some SessionHost) async throws(RemoteAuthError) -> Step
    {
        let provider = host.provider
        let session = item.session
        switch action {
        case .refresh:
            let grant = try await host.call { () async throws(RemoteAuthError) in
                try await provider.refresh(session.refreshToken)
            }
            return .next(.refreshed(grant.idToken))
        case .lookup(let token):
            let user = try await host.call { () async throws(RemoteAuthError) in try await provider.lookup(token) }
            return .next(.lookedUp(isAnonymous: user.isAnonymous))
        case .delete(let token):
            try await host.call { () async throws(RemoteAuthError) in try await provider.deleteAccount(token) }
            return .next(.deleted)
        case .revoke(let token):
            try await host.call { () async throws(RemoteAuthError) in try await provider.revokeSession(token) }
            return .next(.revoked)
        case .confirm(let outcome):
            log(outcome, logger: host.logger)
            switch item {
            case .deleteAccount: await host.apply(.deletionConfirmed(uid: session.uid))
            case .revokeSession: await host.apply(.revocationConfirmed(session.refreshToken))
            }
            return .finished(nil)
        case .retryLater(let error):
            return .finished(error)
        }
    }

    private func log(_ outcome: CleanupJob.Outcome, logger: Logger) {
        let metadata: Logger.Metadata = ["account.uid": "\(item.session.uid)"]
        switch outcome {
        case .deleted: logger.info("Deleted a given-up anonymous account", metadata: metadata)
        case .alreadyGone: logger.info("A given-up anonymous account was already gone", metadata: metadata)
        case .noLongerAnonymous:
            logger.warning(
                "A given-up account is no longer anonymous at the backend (linked meanwhile); keeping it",
                metadata: metadata)
        case .revokedInstead:
            logger.warning(
                "The backend cannot delete a given-up anonymous account; signed it out at the backend instead",
                metadata: metadata)
        case .revoked: logger.debug("Ended a left session at the backend", metadata: metadata)
        case .nothingToEnd: logger.debug("A left session needs no ending at the backend", metadata: metadata)
        }
    }
}
