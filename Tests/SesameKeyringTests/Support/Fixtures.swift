import Foundation
import SesameCore

/// Sample states for keyring tests.
enum Fixtures {
    static func session(uid: String, refresh: String = "refresh-secret") -> Session {
        Session(
            user: User(
                uid: uid, isAnonymous: true, providers: [], createdAt: Date(timeIntervalSince1970: 1_700_000_000)),
            idToken: IDToken(
                rawValue: "eyJ.header.\(uid)", expiresAt: Date(timeIntervalSince1970: 1_800_000_000.25),
                issuedAt: Date(timeIntervalSince1970: 1_799_996_400), signInProvider: "anonymous"),
            refreshToken: RefreshToken(refresh))
    }

    static let anonymous = PersistedState(session: session(uid: "guest-1"))

    static let busy = PersistedState(
        session: session(uid: "user-2", refresh: "r2"),
        pendingDeletions: [session(uid: "old-guest")],
        pendingMerges: [
            PendingMerge(
                merge: Merge(
                    mergeId: "m1", fromUid: "old-guest", toUid: "user-2",
                    createdAt: Date(timeIntervalSince1970: 1_750_000_000)),
                guest: session(uid: "old-guest"))
        ],
        emailLinkAddress: "ana@example.com",
        pendingUsernameSteps: [UsernameStep(kind: .release, uid: "user-2", key: "ana", username: "Ana")])

    /// A state whose payload is about `size` bytes, tagged so tests can tell versions apart.
    static func tagged(_ tag: String, size: Int = 0) -> PersistedState {
        PersistedState(emailLinkAddress: tag + String(repeating: "x", count: size))
    }
}
