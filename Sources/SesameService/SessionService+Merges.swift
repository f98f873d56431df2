import Foundation
import Logging
import SesameCore

/// Adopting a sign-in's tokens: an update, a switch, or from a guest a durable merge.
extension SessionService {
    /// Completes a pending merge: the guest account is deleted at the backend.
    public func completeMerge(mergeId: String) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            guard machine.persisted.pendingMerges.contains(where: { $0.merge.mergeId == mergeId }) else {
                throw AuthError(.noSuchMerge)
            }
            await completeMergeNow(mergeId)
            return makeState()
        }
    }

    /// Adopts the tokens of a sign-in: the same account is an update; from a guest it is a
    /// merge, recorded in the same keyring write as the switch; otherwise the session is replaced.
    func adopt(_ result: SignInResult) async -> Merge? {
        let previous = machine.session
        let session = await makeSession(from: result)
        if let previous, previous.uid == session.uid {
            await apply(.updated(session))
            await followConfirmedEmailChange()
            return nil
        }
        if let previous, previous.user.isAnonymous {
            let merge = Merge(
                mergeId: UUID().uuidString.lowercased(), fromUid: previous.uid, toUid: session.uid, createdAt: now())
            logger.info(
                "Signed in from a guest; recorded a merge",
                metadata: [
                    "merge.id": "\(merge.mergeId)", "merge.from": "\(merge.fromUid)", "merge.to": "\(merge.toUid)",
                ])
            await apply(.merged(session, PendingMerge(merge: merge, guest: previous)))
            if maintenance.mergeHold <= 0 {
                await completeMergeNow(merge.mergeId)
            }
            return merge
        }
        let reason: AuthChangeReason = previous == nil && result.isNewUser ? .signedUp : .signedIn
        logger.info("Signed in", metadata: ["session.uid": "\(session.uid)", "reason": "\(reason.rawValue)"])
        await apply(.signedIn(session, reason: reason))
        await followConfirmedEmailChange()
        return nil
    }

    /// The guest became an account in place (uid kept): said in the journal, then applied.
    func applyLinked(_ session: Session) async {
        logger.info(
            "The guest became an account in place",
            metadata: ["session.uid": "\(session.uid)", "providers": "\(session.user.providers)"])
        await apply(.linked(session))
    }

    func completeMergeNow(_ mergeId: String) async {
        logger.info("Completing a merge", metadata: ["merge.id": "\(mergeId)"])
        await apply(.mergeCompleted(mergeId: mergeId))
        await processDeletionsNow()
    }
}
