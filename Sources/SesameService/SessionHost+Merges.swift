import Foundation
import Logging
import SesameCore

/// Adopting a sign-in's tokens: an update, a switch, or from a guest a durable merge.
extension SessionHost {
    /// Completes a pending merge: the guest account is deleted at the backend.
    func completeMerge(mergeId: String) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            guard persisted.pendingMerges.contains(where: { $0.merge.mergeId == mergeId }) else {
                throw AuthError(.noSuchMerge)
            }
            await completeMergeNow(mergeId)
            return state
        }
    }
}
