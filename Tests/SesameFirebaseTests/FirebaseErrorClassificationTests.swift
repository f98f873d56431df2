import Foundation
import NIOHTTP1
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// How failed answers become `RemoteAuthError`s (docs/firebase.md, "Error classification"), driven through the
/// public provider API so the context of each call is the real one.
@Suite("Firebase auth provider: error classification")
struct FirebaseErrorClassificationTests {
    typealias Reply = ScriptedTransport.Reply

    /// One provider call.
    enum Call: String, Sendable, CaseIterable {
        case signUpAnonymously, refresh, lookup, deleteAccount, signUp, linkPassword, signInPassword
        case sendSignInLink, signInEmailLink, linkEmailLink, signInIdp, linkIdp, signInMethods
        case updateProfile, unlink, sendPasswordReset, sendEmailVerification

        func run(_ provider: FirebaseAuthProvider) async throws(RemoteAuthError) {
            let token = Fixtures.idToken()
            let credential = FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil)
            switch self {
            case .signUpAnonymously: _ = try await provider.signUpAnonymously()
            case .refresh: _ = try await provider.refresh(RefreshToken("r"))
            case .lookup: _ = try await provider.lookup(token)
            case .deleteAccount: try await provider.deleteAccount(token)
            case .signUp: _ = try await provider.signUp(email: "ann@example.com", password: "pw", linkingTo: nil)
            case .linkPassword:
                _ = try await provider.signUp(email: "ann@example.com", password: "pw", linkingTo: token)
            case .signInPassword: _ = try await provider.signIn(email: "ann@example.com", password: "pw")
            case .sendSignInLink: try await provider.sendSignInLink(email: "ann@example.com", continueUrl: nil)
            case .signInEmailLink:
                _ = try await provider.signIn(
                    email: "ann@example.com", proof: .link(Fixtures.signInLink("c")), linkingTo: nil)
            case .linkEmailLink:
                _ = try await provider.signIn(
                    email: "ann@example.com", proof: .link(Fixtures.signInLink("c")), linkingTo: token)
            case .signInIdp: _ = try await provider.signIn(federated: credential, linkingTo: nil)
            case .linkIdp: _ = try await provider.signIn(federated: credential, linkingTo: token)
            case .signInMethods: _ = try await provider.signInMethods(forEmail: "ann@example.com")
            case .updateProfile: _ = try await provider.updateProfile(token, displayName: "x")
            case .unlink: try await provider.unlink(token, providerIds: ["google.com"])
            case .sendPasswordReset: try await provider.sendPasswordReset(email: "ann@example.com")
            case .sendEmailVerification: try await provider.sendEmailVerification(token)
            }
        }

        /// Whether the call carries the session's ID token.
        var sendsIDToken: Bool {
            switch self {
            case .lookup, .deleteAccount, .linkPassword, .linkEmailLink, .linkIdp, .updateProfile, .unlink,
                .sendEmailVerification:
                true
            default:
                false
            }
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var call: Call
        var reply: Reply
        var expected: RemoteAuthError
        var testDescription: String { "\(call.rawValue) → \(expected)" }

        init(_ call: Call, _ reply: Reply, _ expected: RemoteAuthError) {
            self.call = call
            self.reply = reply
            self.expected = expected
        }
    }

    static func rejected(_ reason: AuthError.Reason, email: String? = nil, providerId: String? = nil) -> RemoteAuthError
    {
        .rejected(AuthError(reason, email: email, providerId: providerId))
    }

    static let rows: [Row] = [
        // Domain reasons (§6).
        Row(
            .signUp, .error(400, "EMAIL_EXISTS"),
            rejected(.emailAlreadyInUse, email: "ann@example.com", providerId: "password")),
        Row(
            .linkPassword, .error(400, "EMAIL_EXISTS"),
            rejected(.emailAlreadyInUse, email: "ann@example.com", providerId: "password")),
        Row(
            .linkEmailLink, .error(400, "EMAIL_EXISTS"),
            rejected(.emailAlreadyInUse, email: "ann@example.com", providerId: "password")),
        Row(.signInPassword, .error(400, "INVALID_PASSWORD"), rejected(.invalidLoginCredentials)),
        Row(.signInPassword, .error(400, "EMAIL_NOT_FOUND"), rejected(.invalidLoginCredentials)),
        Row(.signInPassword, .error(400, "INVALID_LOGIN_CREDENTIALS"), rejected(.invalidLoginCredentials)),
        Row(.signInPassword, .error(400, "MISSING_PASSWORD"), rejected(.invalidLoginCredentials)),
        Row(.signInPassword, .error(400, "USER_DISABLED"), rejected(.userDisabled)),
        Row(.signInPassword, .error(400, "PASSWORD_LOGIN_DISABLED"), rejected(.operationNotAllowed)),
        Row(.signUp, .error(400, "WEAK_PASSWORD : Password should be at least 6 characters"), rejected(.weakPassword)),
        Row(.signUp, .error(400, "MISSING_PASSWORD"), rejected(.weakPassword)),
        Row(.signUp, .error(400, "INVALID_EMAIL"), rejected(.invalidEmail)),
        Row(.signUp, .error(400, "OPERATION_NOT_ALLOWED"), rejected(.operationNotAllowed)),
        Row(.signUpAnonymously, .error(400, "ADMIN_ONLY_OPERATION"), rejected(.operationNotAllowed)),
        Row(.sendSignInLink, .error(400, "MISSING_EMAIL"), rejected(.missingEmail)),
        Row(.sendPasswordReset, .error(400, "INVALID_EMAIL"), rejected(.invalidEmail)),
        Row(.signInEmailLink, .error(400, "INVALID_OOB_CODE"), rejected(.invalidActionCode)),
        Row(.signInEmailLink, .error(400, "EXPIRED_OOB_CODE"), rejected(.expiredActionCode)),
        Row(
            .signInEmailLink,
            .error(400, "INVALID_EMAIL : The email provided does not match the sign-in email address."),
            rejected(.invalidEmail)),
        Row(.signInIdp, .error(400, "INVALID_IDP_RESPONSE : Unable to parse id_token"), rejected(.invalidCredential)),
        Row(
            .signInIdp, .error(400, "FEDERATED_USER_ID_ALREADY_LINKED"),
            rejected(.credentialAlreadyInUse, providerId: "google.com")),
        Row(.linkIdp, .error(400, "EMAIL_EXISTS"), rejected(.emailAlreadyInUse, providerId: "google.com")),
        Row(.signInMethods, .error(400, "INVALID_IDENTIFIER"), rejected(.invalidEmail)),
        Row(.deleteAccount, .error(400, "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"), rejected(.requiresRecentLogin)),
        // The ID token and its account (§3.1, §12).
        Row(.lookup, .error(400, "INVALID_ID_TOKEN"), .idTokenRejected),
        Row(.lookup, .error(400, "TOKEN_EXPIRED"), .idTokenRejected),
        Row(.linkIdp, .error(400, "TOKEN_EXPIRED"), .idTokenRejected),
        Row(.lookup, .error(400, "USER_NOT_FOUND"), .accountGone(.userNotFound)),
        Row(.deleteAccount, .error(400, "USER_DISABLED"), .accountGone(.userDisabled)),
        Row(.linkEmailLink, .error(400, "USER_DISABLED"), .accountGone(.userDisabled)),
        Row(.sendEmailVerification, .error(400, "INVALID_ID_TOKEN"), .idTokenRejected),
        // Refresh: only definitive answers end the session (docs/firebase.md, "What is retried, and what is not").
        Row(.refresh, .error(400, "INVALID_REFRESH_TOKEN"), .accountGone(.sessionRevoked)),
        Row(.refresh, .error(400, "TOKEN_EXPIRED"), .accountGone(.credentialsChanged)),
        Row(.refresh, .error(400, "USER_DISABLED"), .accountGone(.userDisabled)),
        Row(.refresh, .error(400, "USER_NOT_FOUND"), .accountGone(.userNotFound)),
        Row(.refresh, .error(400, "PROJECT_NUMBER_MISMATCH"), rejected(.invalidCredential)),
        Row(.refresh, .error(429, "TOO_MANY_ATTEMPTS_TRY_LATER"), .rateLimited(retryAfterMs: nil)),
        Row(.refresh, .error(503, "UNAVAILABLE"), .unavailable(status: 503)),
        Row(.refresh, .failure(.connectTimedOut), .transport("connect timed out")),
        // Transient classes.
        Row(
            .signInPassword, .error(400, "TOO_MANY_ATTEMPTS_TRY_LATER : Access disabled"),
            .rateLimited(retryAfterMs: nil)),
        Row(.signUpAnonymously, .error(400, "QUOTA_EXCEEDED"), .rateLimited(retryAfterMs: nil)),
        Row(.lookup, .json(429, "{}"), .rateLimited(retryAfterMs: nil)),
        // Retry-After is carried: seconds or an HTTP date (measured from the provider's clock).
        Row(.refresh, .json(429, "{}", headers: ["Retry-After": "7"]), .rateLimited(retryAfterMs: 7000)),
        Row(
            .signInPassword,
            Reply.json(
                400, #"{"error":{"code":400,"message":"TOO_MANY_ATTEMPTS_TRY_LATER"}}"#, headers: ["Retry-After": "30"]),
            .rateLimited(retryAfterMs: 30000)),
        Row(
            .lookup, .json(429, "{}", headers: ["Retry-After": "Fri, 15 Jan 2027 08:00:10 GMT"]),
            .rateLimited(retryAfterMs: 10000)),
        Row(.lookup, .json(500, "{}"), .unavailable(status: 500)),
        Row(.signUpAnonymously, .json(502, "<html>bad gateway</html>"), .unavailable(status: 502)),
        Row(
            .signUpAnonymously, .json(400, "<html>nope</html>"),
            .malformedResponse("accounts:signUp: HTTP 400 without an error body")),
        // Unknown codes: the call's fallback.
        Row(.signInPassword, .error(400, "SOMETHING_NEW"), rejected(.invalidCredential)),
        Row(.signInEmailLink, .error(400, "SOMETHING_NEW"), rejected(.invalidCredential)),
        Row(.lookup, .error(400, "SOMETHING_NEW"), rejected(.operationNotAllowed)),
        Row(
            .sendSignInLink, .error(400, "INVALID_CONTINUE_URI : ((expected an absolute URI))"),
            rejected(.operationNotAllowed)),
        Row(.signUpAnonymously, .error(403, "The request is missing a valid API key."), rejected(.operationNotAllowed)),
        // INVALID_ID_TOKEN on a call without one is not about the session.
        Row(.signUp, .error(400, "INVALID_ID_TOKEN"), rejected(.invalidCredential)),
    ]

    @Test("classification table", arguments: rows)
    func classify(_ row: Row) async {
        // Linking a password reads the display name first (it would be lost otherwise).
        let lookup = ScriptedTransport.Reply.json(200, #"{"users":[{"localId":"uid-1"}]}"#)
        let transport = ScriptedTransport(row.call == .linkPassword ? [lookup, row.reply] : [row.reply])
        let provider = Fixtures.provider(transport)
        await #expect(throws: row.expected) {
            try await row.call.run(provider)
        }
    }

    @Test(
        "a 200 without the needed fields is a malformed response",
        arguments: [
            (Call.signUpAnonymously, #"{"localId":"u","refreshToken":"r","expiresIn":"3600"}"#),
            (Call.signUpAnonymously, #"{"localId":"u","idToken":"t","refreshToken":"r","expiresIn":"soon"}"#),
            (Call.signUpAnonymously, #"{"localId":"","idToken":"t","refreshToken":"r","expiresIn":"3600"}"#),
            (Call.refresh, #"{"idToken":"t","refreshToken":"r","expiresIn":"3600","localId":"u"}"#),
            (Call.lookup, #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#),
            (Call.signInIdp, #"{"providerId":"google.com","email":"a@b.c"}"#),
            (Call.signInPassword, "not json"),
            (Call.deleteAccount, "[1,2]"),
        ])
    func malformed(call: Call, body: String) async {
        let transport = ScriptedTransport([.json(200, body)])
        do {
            try await call.run(Fixtures.provider(transport))
            Issue.record("expected a malformed response")
        } catch {
            guard case .malformedResponse = error else {
                Issue.record("got \(error)")
                return
            }
        }
    }

    @Test("malformed-response messages never echo the answer")
    func malformedMessagesAreSecretFree() async {
        let transport = ScriptedTransport([
            .json(200, #"{"localId":"u","idToken":"SECRET-TOKEN","refreshToken":7,"expiresIn":"3600"}"#)
        ])
        do {
            _ = try await Fixtures.provider(transport).signUpAnonymously()
            Issue.record("expected a failure")
        } catch {
            #expect(!"\(error)".contains("SECRET"))
            #expect(error == .malformedResponse("accounts:signUp: unexpected type at refreshToken"))
        }
    }

    @Test("a password reset for an address without an account succeeds (no account enumeration)")
    func resetOfUnknownAddress() async throws {
        let transport = ScriptedTransport([.error(400, "EMAIL_NOT_FOUND")])
        try await Call.sendPasswordReset.run(Fixtures.provider(transport))
        #expect(await transport.requests.count == 1)
    }

    @Test("ID-token calls are exactly the ones that send an idToken")
    func idTokenCalls() async {
        for call in Call.allCases {
            let transport = ScriptedTransport([.error(400, "INVALID_ID_TOKEN")])
            var classified: RemoteAuthError?
            do { try await call.run(Fixtures.provider(transport)) } catch { classified = error }
            #expect((classified == .idTokenRejected) == call.sendsIDToken, "\(call)")
            let body = await transport.requests.first?.bodyText ?? ""
            #expect(body.contains("\"idToken\"") == call.sendsIDToken, "\(call)")
        }
    }

    @Test("an unparsable JWT has the provider 'unknown'")
    func unknownProvider() async throws {
        let transport = ScriptedTransport([
            Fixtures.signInAnswer(jwt: "not-a-jwt"),
            Fixtures.signInAnswer(jwt: "a.%%%.b"),
            Fixtures.signInAnswer(jwt: "\(TestJWT.encode("{}")).\(TestJWT.encode(#"{"firebase":{}}"#))."),
        ])
        let provider = Fixtures.provider(transport)
        for _ in 0..<3 {
            #expect(try await provider.signUpAnonymously().idToken.signInProvider == "unknown")
        }
    }
}
