import NIOHTTP1
import SesameCore
import SesameHTTP
import SesameSupabase
import SesameTesting
import Testing

/// How failed answers become `RemoteAuthError`s (the table in docs/providers.md), driven
/// through the public API so each call's context is the real one.
@Suite("Supabase adapter: error classification")
struct SupabaseErrorClassificationTests {
    typealias Reply = ScriptedTransport.Reply

    enum Call: String, Sendable {
        case signUpAnonymously, refresh, lookup, deleteAccount, signUp, linkPassword, signInPassword
        case sendSignInLink, verifyCode, signInIdp, linkIdp, sendPasswordReset, claim, owner

        func run(_ transport: ScriptedTransport) async throws(RemoteAuthError) {
            let provider = Fixtures.provider(transport)
            let token = Fixtures.idToken()
            let credential = FederatedCredential(providerId: "google.com", idToken: "IDP", accessToken: nil)
            switch self {
            case .signUpAnonymously: _ = try await provider.signUpAnonymously()
            case .refresh: _ = try await provider.refresh(RefreshToken("abcdefghijkl"))
            case .lookup: _ = try await provider.lookup(token)
            case .deleteAccount: try await provider.deleteAccount(token)
            case .signUp: _ = try await provider.signUp(email: "ann@example.com", password: "pw-123456", linkingTo: nil)
            case .linkPassword:
                _ = try await provider.signUp(email: "ann@example.com", password: "pw-123456", linkingTo: token)
            case .signInPassword: _ = try await provider.signIn(email: "ann@example.com", password: "pw")
            case .sendSignInLink: try await provider.sendSignInLink(email: "ann@example.com", continueUrl: nil)
            case .verifyCode:
                _ = try await provider.signIn(email: "ann@example.com", proof: .code("123456"), linkingTo: nil)
            case .signInIdp: _ = try await provider.signIn(federated: credential, linkingTo: nil)
            case .linkIdp: _ = try await provider.signIn(federated: credential, linkingTo: token)
            case .sendPasswordReset: try await provider.sendPasswordReset(email: "ann@example.com")
            case .claim: _ = try await Fixtures.directory(transport).claim("ann", for: "u-1", idToken: token)
            case .owner: _ = try await Fixtures.directory(transport).owner(of: "ann")
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var call: Call
        var reply: Reply
        var expected: RemoteAuthError
        init(_ call: Call, _ reply: Reply, _ expected: RemoteAuthError) {
            self.call = call
            self.reply = reply
            self.expected = expected
        }
        var testDescription: String { "\(call.rawValue) → \(expected)" }
    }

    static func rejected(_ reason: AuthError.Reason, email: String? = nil, providerId: String? = nil) -> RemoteAuthError
    {
        .rejected(AuthError(reason, email: email, providerId: providerId))
    }

    static let rows: [Row] = [
        // Refresh: only definitive answers end the session; both error shapes.
        Row(.refresh, .error(400, "refresh_token_already_used"), .accountGone(.sessionRevoked)),
        Row(.refresh, .legacy(400, "refresh_token_not_found"), .accountGone(.sessionRevoked)),
        Row(.refresh, .error(400, "session_not_found"), .accountGone(.sessionRevoked)),
        Row(.refresh, .error(400, "session_expired"), .accountGone(.sessionRevoked)),
        Row(.refresh, .error(400, "user_banned"), .accountGone(.userDisabled)),
        Row(.refresh, .error(409, "conflict"), .unavailable(status: 409)),
        Row(.refresh, .error(429, "over_request_rate_limit"), .rateLimited(retryAfterMs: nil)),
        Row(.refresh, .json(429, "{}", headers: ["Retry-After": "12"]), .rateLimited(retryAfterMs: 12_000)),
        Row(.refresh, .json(502, "<html>bad gateway</html>"), .unavailable(status: 502)),
        Row(.refresh, .error(500, "unexpected_failure"), .unavailable(status: 500)),
        Row(.refresh, .failure(.connectTimedOut), .transport("connect timed out")),
        Row(
            .refresh, .failure(.responseTooLarge(limit: 10)),
            .malformedResponse("auth.token.refresh: response body larger than 10 bytes")),
        Row(
            .refresh, .json(400, "<html>nope</html>"),
            .malformedResponse("auth.token.refresh: HTTP 400 without an error body")),
        Row(
            .refresh, .json(200, #"{"access_token":"a"}"#),
            .malformedResponse("auth.token.refresh: no access_token or refresh_token")),
        // Calls with the access token.
        Row(.lookup, .error(403, "bad_jwt"), .idTokenRejected),
        Row(.lookup, .error(401, "no_authorization"), .idTokenRejected),
        Row(.lookup, .error(403, "session_not_found"), .accountGone(.sessionRevoked)),
        Row(.lookup, .legacy(403, "user_not_found"), .accountGone(.userNotFound)),
        Row(.deleteAccount, .postgrest(401, "PGRST303"), .idTokenRejected),
        Row(.deleteAccount, .postgrest(401, "PGRST301"), .idTokenRejected),
        // Domain reasons.
        Row(
            .signUp, .error(422, "user_already_exists"),
            rejected(.emailAlreadyInUse, email: "ann@example.com", providerId: "password")),
        Row(
            .linkPassword, .error(422, "email_exists"),
            rejected(.emailAlreadyInUse, email: "ann@example.com", providerId: "password")),
        Row(.signUp, .error(422, "weak_password"), rejected(.weakPassword)),
        Row(.signUp, .error(400, "validation_failed"), rejected(.invalidEmail)),
        Row(.signUp, .error(400, "email_address_invalid"), rejected(.invalidEmail)),
        Row(.signInPassword, .error(400, "invalid_credentials"), rejected(.invalidLoginCredentials)),
        Row(.signInPassword, .legacy(400, "invalid_credentials"), rejected(.invalidLoginCredentials)),
        Row(.signInPassword, .error(400, "validation_failed"), rejected(.invalidLoginCredentials)),
        Row(
            .verifyCode, .error(403, "otp_expired"),
            .rejected(
                AuthError(
                    .invalidActionCode,
                    message: "That code or link is wrong, expired or already used: request a new one."))),
        Row(.sendSignInLink, .error(429, "over_email_send_rate_limit"), .rateLimited(retryAfterMs: nil)),
        Row(.sendSignInLink, .error(400, "over_email_send_rate_limit"), .rateLimited(retryAfterMs: nil)),
        // GoTrue states the wait in its message, not in Retry-After.
        Row(
            .sendSignInLink,
            .json(
                429,
                #"{"code":"over_email_send_rate_limit","message":"You can only request this after 58 seconds."}"#
            ),
            .rateLimited(retryAfterMs: 58_000)),
        Row(
            .sendSignInLink,
            .json(
                429,
                #"{"code":429,"error_code":"over_email_send_rate_limit","msg":"… only request this after 1 second."}"#),
            .rateLimited(retryAfterMs: 1_000)),
        Row(
            .sendSignInLink,
            .json(
                429, #"{"code":"over_email_send_rate_limit","message":"after 3 seconds"}"#,
                headers: ["Retry-After": "7"]),
            .rateLimited(retryAfterMs: 7_000)),
        Row(
            .linkIdp, .error(422, "identity_already_exists"),
            rejected(.credentialAlreadyInUse, providerId: "google.com")),
        Row(
            .signInIdp, .json(400, #"{"error":"invalid request","error_description":"Unacceptable audience"}"#),
            rejected(.invalidCredential)),
        Row(.sendPasswordReset, .error(422, "something_new"), rejected(.operationNotAllowed)),
        // The x-sb-error-code header names the code when the body does not.
        Row(
            .signInPassword,
            .response(HTTPResponse(status: 400, headers: ["x-sb-error-code": "invalid_credentials"], text: "<html>")),
            rejected(.invalidLoginCredentials)),
        // A 2xx answer whose content is not needed must still be JSON or empty.
        Row(.sendPasswordReset, .json(200, "<html>ok</html>"), .malformedResponse("auth.recover: not JSON")),
        // Unknown codes: the call's fallback.
        Row(.signInIdp, .error(400, "something_new"), rejected(.invalidCredential)),
        Row(.signInPassword, .error(400, "something_new"), rejected(.invalidLoginCredentials)),
        // The directory.
        Row(.owner, .postgrest(503, "PGRST000"), .unavailable(status: 503)),
        Row(.claim, .postgrest(401, "PGRST303"), .idTokenRejected),
    ]

    @Test("classification table", arguments: rows)
    func classify(_ row: Row) async {
        let transport = ScriptedTransport([row.reply])
        await #expect(throws: row.expected) {
            try await row.call.run(transport)
        }
    }

    @Test(
        "configuration problems say what to enable or deploy",
        arguments: [
            ("anonymous_provider_disabled", "enable"), ("signup_disabled", "enable"), ("PGRST205", "deploy"),
        ])
    func guidance(code: String, hint: String) async {
        let transport = ScriptedTransport([code.hasPrefix("PGRST") ? .postgrest(404, code) : .error(422, code)])
        let refusal = await #expect(throws: RemoteAuthError.self) {
            try await (code.hasPrefix("PGRST") ? Call.owner : Call.signUpAnonymously).run(transport)
        }
        #expect(refusal?.isTransient == false)
        #expect(refusal?.authError.reason == .operationNotAllowed)
        #expect(refusal?.authError.message.contains(hint) == true)
    }

    @Test("transient failures never end a session, definitive ones are not transient")
    func transience() {
        #expect(RemoteAuthError.unavailable(status: 409).isTransient)
        #expect(RemoteAuthError.rateLimited(retryAfterMs: 1).isTransient)
        #expect(!RemoteAuthError.accountGone(.sessionRevoked).isTransient)
    }
}
