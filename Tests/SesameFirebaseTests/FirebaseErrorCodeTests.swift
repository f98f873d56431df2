import SesameFirebase
import Testing

@Suite("Firebase error codes")
struct FirebaseErrorCodeTests {
    @Test(
        "the code is the leading [A-Z0-9_]+ run of error.message",
        arguments: [
            ("EMAIL_EXISTS", "EMAIL_EXISTS"),
            ("WEAK_PASSWORD : Password should be at least 6 characters", "WEAK_PASSWORD"),
            ("INVALID_EMAIL : The email provided does not match the sign-in email address.", "INVALID_EMAIL"),
            ("TOO_MANY_ATTEMPTS_TRY_LATER: try later", "TOO_MANY_ATTEMPTS_TRY_LATER"),
            ("INVALID_IDP_RESPONSE ((Auth Emulator only accepts strict JSON.))", "INVALID_IDP_RESPONSE"),
            ("INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))", "INVALID_CONTINUE_URI"),
            ("API key not valid. Please pass a valid API key.", "API"),
        ]
    )
    func parses(message: String, code: String) {
        #expect(FirebaseErrorCode(message: message)?.rawValue == code)
    }

    @Test(
        "a message that starts with a sentence has no code",
        arguments: ["The request is missing a valid API key.", "Not Found", "", " EMAIL_EXISTS", "invalid"]
    )
    func noCode(message: String) {
        #expect(FirebaseErrorCode(message: message) == nil)
    }

    @Test("the detail is what follows the separator")
    func detail() {
        #expect(
            FirebaseErrorCode.detail(of: "WEAK_PASSWORD : Password should be at least 6 characters")
                == "Password should be at least 6 characters")
        #expect(FirebaseErrorCode.detail(of: "EMAIL_EXISTS") == nil)
    }
}
