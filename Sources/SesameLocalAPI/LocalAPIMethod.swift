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

    /// The least role that may call the method (`subscribe` with `migrator` needs manager).
    public var requiredRole: LocalAPIRole {
        switch self {
        case .hello: .none
        case .getState, .subscribe, .unsubscribe, .checkUsername: .observer
        case .getIdToken: .reader
        default: .manager
        }
    }

    /// Whether the method changes the session (these run one at a time, in arrival order).
    public var changesSession: Bool {
        requiredRole == .manager
    }
}
