import Foundation
import NIOHTTP1
import SesameCore
import SesameHTTP
import SesameOAuth
import SesameTesting
import Testing

/// Every poll answer and refusal of RFC 8628 and the providers' own codes, mapped.
@Suite("OAuth device client: error mapping")
struct OAuthErrorMappingTests {
    static let providers = [
        "github.com": OAuthProviderConfiguration(clientId: "gh-client"),
        "google.com": OAuthProviderConfiguration(clientId: "tv-client", clientSecret: "s"),
    ]

    /// One poll of `providerId` answered with `reply`.
    static func poll(
        _ reply: ScriptedTransport.Reply, providerId: String = "github.com"
    ) async throws(RemoteAuthError)
        -> DevicePollAnswer
    {
        let client = OAuthDeviceClient(providers: providers, transport: ScriptedTransport([reply]))
        return try await client.poll(providerId: providerId, deviceCode: DeviceCode("d"))
    }

    @Test(
        "the poll's ordinary answers, with any 4xx status or GitHub's 200",
        arguments: [400, 401, 403, 428, 200])
    func ordinaryAnswers(status: Int) async throws {
        #expect(try await Self.poll(.json(status, #"{"error":"authorization_pending"}"#)) == .pending)
        #expect(try await Self.poll(.json(status, #"{"error":"slow_down"}"#)) == .slowDown(interval: nil))
        #expect(
            try await Self.poll(.json(status, #"{"error":"slow_down","interval":"15"}"#)) == .slowDown(interval: 15))
        #expect(try await Self.poll(.json(status, #"{"error":"access_denied"}"#)) == .denied)
        #expect(try await Self.poll(.json(status, #"{"error":"expired_token"}"#)) == .expired)
    }

    @Test(
        "a spent or unknown device code ends the flow as expired-sign-in-flow",
        arguments: ["invalid_grant", "incorrect_device_code"])
    func spentCode(code: String) async throws {
        for status in [400, 200] {
            await #expect(throws: RemoteAuthError.rejected(AuthError(.expiredSignInFlow))) {
                _ = try await Self.poll(.json(status, #"{"error":"\#(code)"}"#))
            }
        }
    }

    @Test(
        "a refused client is operation-not-allowed saying what to configure",
        arguments: [
            ("incorrect_client_credentials", "client_id"), ("invalid_client", "client_id"),
            ("unauthorized_client", "client_id"), ("device_flow_disabled", "client_id"),
            ("invalid_request", "client_secret"), ("unsupported_grant_type", "token_endpoint"),
            ("invalid_scope", "scopes"),
        ])
    func refusedClient(code: String, key: String) async throws {
        let error = await #expect(throws: RemoteAuthError.self) {
            _ = try await Self.poll(.json(400, #"{"error":"\#(code)","error_description":"SECRET-ECHO"}"#))
        }
        guard case .unsupported(let message)? = error else {
            Issue.record("\(code): \(String(describing: error))")
            return
        }
        #expect(message.contains("[oauth.\"github.com\"]") && message.contains(key), "\(message)")
        #expect(!message.contains("SECRET-ECHO"))
        #expect(error?.authError.reason == .operationNotAllowed)
    }

    @Test("an unknown error code is invalid-credential; transient failures map as the pipeline does")
    func otherFailures() async throws {
        await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCredential, providerId: "github.com"))) {
            _ = try await Self.poll(.json(400, #"{"error":"something_new"}"#))
        }
        await #expect(throws: RemoteAuthError.rateLimited(retryAfterMs: 7000)) {
            _ = try await Self.poll(.json(429, "{}", headers: ["Retry-After": "7"]))
        }
        #expect(try await Self.poll(.json(429, #"{"error":"slow_down"}"#)) == .slowDown(interval: nil))
        await #expect(throws: RemoteAuthError.unavailable(status: 503)) {
            _ = try await Self.poll(.json(503, #"{"error":"temporarily_unavailable"}"#))
        }
        await #expect(throws: RemoteAuthError.transport(HTTPTransportError.requestTimedOut.description)) {
            _ = try await Self.poll(.failure(.requestTimedOut))
        }
        for reply in [ScriptedTransport.Reply.response(HTTPResponse(status: 400, text: "<html>")), .json(200, "{}")] {
            let error = await #expect(throws: RemoteAuthError.self) { _ = try await Self.poll(reply) }
            #expect(error?.isTransient == true, "\(String(describing: error))")
            if case .malformedResponse = error {} else { Issue.record("\(String(describing: error))") }
        }
    }

    @Test("a refused start is mapped like a poll's refusal")
    func refusedStart() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"error":"device_flow_disabled"}"#), .json(400, #"{"error":"access_denied"}"#),
        ])
        let client = OAuthDeviceClient(providers: Self.providers, transport: transport)
        let disabled = await #expect(throws: RemoteAuthError.self) {
            _ = try await client.start(providerId: "github.com")
        }
        if case .unsupported(let message)? = disabled {
            #expect(message.contains("Enable Device Flow"))
        } else {
            Issue.record("\(String(describing: disabled))")
        }
        await #expect(throws: RemoteAuthError.rejected(AuthError(.accessDenied))) {
            _ = try await client.start(providerId: "github.com")
        }
    }
}
