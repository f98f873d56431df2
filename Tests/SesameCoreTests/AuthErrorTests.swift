import SesameCore
import Testing

@Suite("Domain errors")
struct AuthErrorTests {
    @Test("every reason has a category and a message that says what to do", arguments: AuthError.Reason.allCases)
    func messages(_ reason: AuthError.Reason) {
        let error = AuthError(reason)
        #expect(!error.message.isEmpty)
        #expect(error.message.hasSuffix(".") || error.message.hasSuffix("'."))
        if reason.category == .backend { #expect(error.retryAfterMs != nil) }
    }

    @Test("only definitive backend answers are not transient")
    func transient() {
        #expect(RemoteAuthError.transport("x").isTransient)
        #expect(RemoteAuthError.unavailable(status: 503).isTransient)
        #expect(RemoteAuthError.rateLimited(retryAfterMs: nil).isTransient)
        #expect(RemoteAuthError.malformedResponse("x").isTransient)
        #expect(!RemoteAuthError.rejected(AuthError(.weakPassword)).isTransient)
        #expect(!RemoteAuthError.accountGone(.userDisabled).isTransient)
        #expect(RemoteAuthError.unavailable(status: 500).authError.reason == .backendUnavailable)
        #expect(RemoteAuthError.transport("x").authError.reason == .networkRequestFailed)
        #expect(RemoteAuthError.rateLimited(retryAfterMs: nil).authError.reason == .tooManyRequests)
    }

    @Test("a rate limit carries the backend's Retry-After to the caller, else 5 s")
    func retryAfter() {
        #expect(RemoteAuthError.rateLimited(retryAfterMs: 12_000).authError.retryAfterMs == 12_000)
        #expect(RemoteAuthError.rateLimited(retryAfterMs: nil).authError.retryAfterMs == 5000)
    }
}
