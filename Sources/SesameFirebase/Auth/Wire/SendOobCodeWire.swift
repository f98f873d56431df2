/// `accounts:sendOobCode` (docs/firebase.md, "Endpoints"). The answer (`{kind, email}`) is not used.
struct SendOobCodeRequest: Encodable, Sendable {
    enum RequestType: String, Encodable, Sendable {
        case emailSignIn = "EMAIL_SIGNIN"
        case passwordReset = "PASSWORD_RESET"
        case verifyEmail = "VERIFY_EMAIL"
        case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    }

    var requestType: RequestType
    var email: String?
    var idToken: String?
    var newEmail: String?
    var continueUrl: String?
    var canHandleCodeInApp: Bool?
}
