/// The methods of protocol version 1 and the role each needs.
public enum LocalAPIMethod: String, Sendable, Hashable, CaseIterable {
    case hello
    case getState
    case subscribe
    case unsubscribe
    case getIdToken
    case signInAnonymously
    case createAccount
    case signIn
    case sendSignInLink
    case completeSignInLink
    case signInWithIdp
    case linkCredential
    case unlink
    case signOut
    case deleteAccount
    case reload
    case updateProfile
    case sendPasswordReset
    case sendEmailVerification
    case setUsername
    case checkUsername
    case completeMerge
    case startSignIn
    case completeSignIn
    case awaitSignIn
    case cancelSignIn
    case signInWithCustomToken
    case completeSecondFactor
    case enrollTotp
    case confirmTotp
    case unenrollFactor
    case reauthenticate
    case changePassword
    case changeEmail
    case confirmPasswordReset

    /// The least role that may call the method (`subscribe` with `migrator` needs manager).
    public var requiredRole: LocalAPIRole {
        switch self {
        case .hello: .none
        case .getState, .subscribe, .unsubscribe, .checkUsername, .confirmPasswordReset: .observer
        case .getIdToken: .reader
        default: .manager
        }
    }

    /// Where a request is answered.
    public enum Venue: Sendable, Hashable {
        /// On the connection's event loop, from the last published state (or the connection).
        case eventLoop
        /// On the event loop when the answer published with the state fits (a held token fresh
        /// enough), else by the session service.
        case eventLoopWhenCached
        /// By the session service.
        case service
    }

    public var venue: Venue {
        switch self {
        case .hello, .getState, .subscribe, .unsubscribe: .eventLoop
        case .getIdToken: .eventLoopWhenCached
        default: .service
        }
    }

    /// Whether the method changes the session (these run one at a time, in arrival order).
    public var changesSession: Bool {
        switch self {
        // Waiting for a flow, or ending one, must not queue behind the flow's own sign-in.
        case .awaitSignIn, .cancelSignIn: false
        default: requiredRole == .manager
        }
    }
}
