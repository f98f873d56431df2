import Foundation
import Logging
import SesameCore

/// A kiosk's stop (`session.persistence = "memory"`): nothing of the session outlives the
/// process, so nothing of it may outlive it at the backend either.
extension SessionHost {
    /// Ends the session for good: a guest is deleted at the backend, an account's session ended
    /// there (a server-side sign-out where the backend has one); no guest follows. Left cleanup
    /// (a reset guest, a replaced session) is done too. Returns whether the backend confirmed
    /// everything; false when it could not be reached (then the guest or the session stays
    /// there: the keyring that would retry it does not exist).
    func endSessionAtStop() async -> Bool {
        let ended = try? await exclusively { () async throws(AuthError) -> Bool in
            if let session = self.session {
                let metadata: Logger.Metadata = ["session.uid": "\(session.uid)"]
                if session.user.isAnonymous {
                    logger.info("Deleting the guest at stop (session.persistence = memory)", metadata: metadata)
                    await apply(.reset)
                } else {
                    logger.info("Signing out at stop (session.persistence = memory)", metadata: metadata)
                    await apply(.signedOut)
                }
            }
            await processDeletionsNow()
            let left = persisted.pendingDeletions.count + persisted.pendingRevocations.count
            if left > 0 {
                logger.warning(
                    "Could not reach the backend at stop: a guest or a session stays there",
                    metadata: ["cleanup.left": "\(left)"])
            }
            return left == 0
        }
        return ended ?? false
    }
}
