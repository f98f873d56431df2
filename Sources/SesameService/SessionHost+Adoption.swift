import Foundation
import Logging
import SesameCore

/// Adopting a sign-in's tokens: an update, a switch, or from a guest a durable merge; and the
/// profile a sign-in or a reload reads. Shared by every feature that signs in.
extension SessionHost {
    /// Adopts the tokens of a sign-in: the same account is an update; from a guest it is a
    /// merge, recorded in the same keyring write as the switch; otherwise the session is replaced.
    func adopt(_ result: SignInResult) async -> Merge? {
        let previous = self.session
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
            if mergeHold <= 0 {
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

    /// Builds the session for tokens a sign-in returned, reading the profile from the backend.
    func makeSession(from result: SignInResult) async -> Session {
        let provider = self.provider
        var user: User
        do throws(RemoteAuthError) {
            user = try await call { () async throws(RemoteAuthError) in try await provider.lookup(result.idToken) }
        } catch {
            // The sign-in itself succeeded; keep what the token says and read the rest later.
            let signInProvider = result.idToken.signInProvider
            user = User(
                uid: result.uid, isAnonymous: signInProvider == "anonymous",
                providers: signInProvider == "anonymous" ? [] : [signInProvider], lastSignInAt: now())
        }
        user = await completeProfile(user, previous: session?.uid == result.uid ? session?.user : nil)
        return Session(user: user, idToken: result.idToken, refreshToken: result.refreshToken)
    }

    /// Adds the username (from the directory, when usernames are on) to a profile the backend
    /// returned.
    /// Also shows a remembered address change as `pendingEmail` (``withPendingEmail(_:)``).
    func completeProfile(_ user: User, previous: User?) async -> User {
        if let usernames = features.usernames {
            return withPendingEmail(await usernames.completeProfile(user, previous: previous, in: self))
        }
        var user = user
        user.username = user.username ?? previous?.username
        return withPendingEmail(user)
    }

    /// Reads the profile again and adopts it.
    func reloadProfile() async throws(AuthError) {
        guard let session = self.session else { throw AuthError(.noCurrentUser) }
        let provider = self.provider
        let user = try await withFreshToken { token async throws(RemoteAuthError) in try await provider.lookup(token) }
        guard var current = self.session, current.uid == session.uid else { return }
        current.user = await completeProfile(user, previous: current.user)
        await apply(.updated(current))
        await followConfirmedEmailChange(checkingSession: true)
    }
}
