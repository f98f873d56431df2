import Testing

@testable import SesameHTTP

@Suite("A backend's error code in the log")
struct LoggableErrorCodeTests {
    @Test("a code word is logged as it is; none is -")
    func codeWords() {
        #expect(loggableErrorCode("EMAIL_EXISTS") == "EMAIL_EXISTS")
        #expect(loggableErrorCode("otp_expired") == "otp_expired")
        #expect(loggableErrorCode("invalid-grant") == "invalid-grant")
        #expect(loggableErrorCode("422") == "422")
        #expect(loggableErrorCode(nil) == "-")
    }

    @Test("anything else a backend put there (a message, an address, a token) is logged as ?")
    func anythingElse() {
        #expect(loggableErrorCode("") == "?")
        #expect(loggableErrorCode("Invalid login: ann@example.com") == "?")
        #expect(loggableErrorCode("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln") == "?")
        #expect(loggableErrorCode("qO4ObHY5jGqK") == "?", "a GoTrue refresh token")
        #expect(loggableErrorCode("123456") == "?", "a one-time code")
        #expect(loggableErrorCode(String(repeating: "A", count: 65)) == "?")
    }
}
