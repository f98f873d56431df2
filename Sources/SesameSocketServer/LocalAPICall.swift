import SesameCore
import SesameLocalAPI

/// A request decoded once into what it asks for, with typed parameters: the dispatcher answers
/// it on the event loop or hands it, as it is, to the session service (no second parse). Sign-in
/// proofs and credentials are decoded straight into SesameCore's ``EmailSignInProof`` and
/// ``Credential``.
enum LocalAPICall: Sendable {
    case hello
    case getState
    case subscribe(events: Set<LocalAPIEvent>, migrator: Bool)
    case unsubscribe(subscription: String)
    case getIdToken(minValidity: Double, forceRefresh: Bool, uid: String?)
    case signInAnonymously
    case createAccount(email: String, password: String, username: String?)
    case signIn(identifier: String, password: String)
    case sendSignInLink(email: String, continueUrl: String?)
    case completeSignInLink(proof: EmailSignInProof, email: String?)
    case signInWithIdp(providerId: String, idToken: String?, accessToken: String?)
    /// An `emailLink` credential without `email` has an empty one: the address remembered from
    /// `sendSignInLink` is used.
    case linkCredential(Credential)
    case unlink(providerId: String)
    case signOut(reset: Bool)
    case deleteAccount
    case reload
    case updateProfile(displayName: String?)
    case sendPasswordReset(identifier: String)
    case sendEmailVerification
    case setUsername(String)
    case checkUsername(String)
    case completeMerge(mergeId: String)
    case startSignIn(SignInFlowRequest)
    case completeSignIn(flowId: String, callbackUrl: String)
    case awaitSignIn(flowId: String, timeout: Double)
    case cancelSignIn(flowId: String)
    case signInWithCustomToken(token: String)
    case completeSecondFactor(challengeId: String, code: String, factorId: String?)
    case enrollTotp(displayName: String?)
    case confirmTotp(enrollmentId: String, code: String)
    case unenrollFactor(factorId: String)
    /// Nil proof: ask the backend to mail a one-time code (where it sends them).
    case reauthenticate(ReauthenticationProof?)
    case changePassword(newPassword: String)
    case changeEmail(newEmail: String)
    /// `replacingChallenge`: the caller may replace an open second-factor challenge (a manager;
    /// set by the dispatcher from the role, never from the params).
    case confirmPasswordReset(
        proof: EmailSignInProof, email: String?, newPassword: String, replacingChallenge: Bool = false)

    /// Reads the parameters of `method` (whose role the caller was checked for).
    /// - Throws: `-32602` naming the parameter that is missing or mistyped.
    static func decode(_ method: LocalAPIMethod, _ params: LocalAPIParams) throws(LocalAPIError) -> LocalAPICall {
        switch method {
        case .hello:
            _ = try params.optionalString("client")
            return .hello
        case .getState: return .getState
        case .subscribe:
            let migrator = try params.optionalBool("migrator") ?? false
            var events = LocalAPIEvent.defaultSet
            if let names = try params.optionalStringArray("events") {
                events = []
                for name in names {
                    guard let event = LocalAPIEvent(rawValue: name) else {
                        throw .invalidParams("Unknown event \"\(name.prefix(64))\".")
                    }
                    events.insert(event)
                }
            }
            if migrator { events.insert(.accountMerge) }
            return .subscribe(events: events, migrator: migrator)
        case .unsubscribe: return .unsubscribe(subscription: try params.string("subscription"))
        case .getIdToken:
            let uid = try params.optionalString("uid")
            let force = try params.optionalBool("forceRefresh") ?? false
            let minValidity = try params.optionalNumber("minValidity") ?? 300
            guard minValidity >= 0 else { throw .invalidParams("\"minValidity\" must not be negative.") }
            return .getIdToken(minValidity: minValidity, forceRefresh: force, uid: uid)
        case .signInAnonymously: return .signInAnonymously
        case .signOut: return .signOut(reset: try params.optionalBool("reset") ?? false)
        case .deleteAccount: return .deleteAccount
        case .reload: return .reload
        case .updateProfile: return .updateProfile(displayName: try params.optionalString("displayName"))
        case .createAccount:
            return .createAccount(
                email: try params.string("email"), password: try params.string("password"),
                username: try params.optionalString("username"))
        case .signIn:
            return .signIn(identifier: try params.string("identifier"), password: try params.string("password"))
        case .sendSignInLink:
            return .sendSignInLink(
                email: try params.string("email"), continueUrl: try params.optionalString("continueUrl"))
        case .completeSignInLink:
            let email = try params.optionalString("email")
            return .completeSignInLink(proof: try signInProof(from: params), email: email)
        case .signInWithIdp:
            return .signInWithIdp(
                providerId: try params.string("providerId"), idToken: try params.optionalString("idToken"),
                accessToken: try params.optionalString("accessToken"))
        case .linkCredential: return .linkCredential(try credential(from: try params.object("credential")))
        case .unlink: return .unlink(providerId: try params.string("providerId"))
        case .sendPasswordReset: return .sendPasswordReset(identifier: try params.string("identifier"))
        case .sendEmailVerification: return .sendEmailVerification
        case .completeMerge: return .completeMerge(mergeId: try params.string("mergeId"))
        case .setUsername: return .setUsername(try params.string("username"))
        case .checkUsername: return .checkUsername(try params.string("username"))
        case .startSignIn: return .startSignIn(try signInFlowRequest(from: params))
        case .completeSignIn:
            return .completeSignIn(flowId: try params.string("flowId"), callbackUrl: try params.string("callbackUrl"))
        case .awaitSignIn:
            let timeout = try params.optionalNumber("timeout") ?? 300
            guard timeout >= 0 else { throw .invalidParams("\"timeout\" must not be negative.") }
            return .awaitSignIn(flowId: try params.string("flowId"), timeout: timeout)
        case .cancelSignIn: return .cancelSignIn(flowId: try params.string("flowId"))
        case .signInWithCustomToken: return .signInWithCustomToken(token: try params.string("token"))
        case .completeSecondFactor, .enrollTotp, .confirmTotp, .unenrollFactor, .reauthenticate, .changePassword,
            .changeEmail, .confirmPasswordReset:
            return try decodeAccountSecurity(method, params)
        }
    }

    /// `link`, or `code`: exactly one of the two. `email` is optional with either (the address
    /// remembered from `sendSignInLink` is used without it).
    static func signInProof(from params: LocalAPIParams) throws(LocalAPIError) -> EmailSignInProof {
        let link = try params.optionalString("link")
        let code = try params.optionalString("code")
        switch (link, code) {
        case (let link?, nil):
            return .link(link)
        case (nil, let code?):
            return .code(code)
        default:
            throw .invalidParams(
                "Give either \"link\" (the whole link from the email) or \"code\" (the one-time code from the email), not both."
            )
        }
    }

    static func credential(from params: LocalAPIParams) throws(LocalAPIError) -> Credential {
        let providerId = try params.string("providerId")
        switch providerId {
        case "password":
            return .password(email: try params.string("email"), password: try params.string("password"))
        case "emailLink":
            // Without "email", the daemon uses the address it remembers from sendSignInLink.
            return .emailLink(email: try params.optionalString("email") ?? "", link: try params.string("link"))
        default:
            let idToken = try params.optionalString("idToken")
            let accessToken = try params.optionalString("accessToken")
            guard idToken != nil || accessToken != nil else {
                throw .invalidParams("A federated credential needs \"idToken\" or \"accessToken\".")
            }
            return .federated(providerId: providerId, idToken: idToken, accessToken: accessToken)
        }
    }
}
