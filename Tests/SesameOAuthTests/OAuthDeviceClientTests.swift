import Foundation
import NIOHTTP1
import SesameCore
import SesameHTTP
import SesameOAuth
import SesameTesting
import Testing

/// The device flow client's requests and how it reads RFC 8628 answers (Google's, GitHub's,
/// any provider's), over a scripted transport.
@Suite("OAuth device client: requests and answers")
struct OAuthDeviceClientTests {
    static let google = ["google.com": OAuthProviderConfiguration(clientId: "tv-client", clientSecret: "SECRET-CLIENT")]
    static let github = ["github.com": OAuthProviderConfiguration(clientId: "gh-client")]

    static func client(
        _ transport: ScriptedTransport, _ providers: [String: OAuthProviderConfiguration], emulator: String? = nil
    ) -> OAuthDeviceClient {
        OAuthDeviceClient(providers: providers, emulatorBase: emulator, transport: transport)
    }

    static func form(_ request: HTTPRequest) -> [String: String] {
        PercentEncoding.formDictionary(request.bodyText ?? "")
    }

    @Test("Google: built-in endpoints, scopes, verification_url, the secret only with the token request")
    func google() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"device_code":"SECRET-DEVICE","user_code":"ABCD-EFGH","verification_url":"https://www.google.com/device","expires_in":1800,"interval":5}"#
            ),
            .json(428, #"{"error":"authorization_pending","error_description":"Precondition Required"}"#),
            .json(403, #"{"error":"slow_down","error_description":"Forbidden"}"#),
            .json(200, #"{"access_token":"SECRET-ACCESS","id_token":"SECRET.ID.TOKEN","expires_in":3599}"#),
        ])
        let client = Self.client(transport, Self.google)
        #expect(try client.provider("google.com") == DeviceFlowProvider(providerId: "google.com", yieldsIDToken: true))
        let start = try await client.start(providerId: "google.com")
        #expect(start.deviceCode == DeviceCode("SECRET-DEVICE") && start.userCode == "ABCD-EFGH")
        #expect(start.verificationUri == "https://www.google.com/device" && start.verificationUriComplete == nil)
        #expect(start.expiresIn == 1800 && start.interval == 5)
        #expect(try await client.poll(providerId: "google.com", deviceCode: start.deviceCode) == .pending)
        #expect(
            try await client.poll(providerId: "google.com", deviceCode: start.deviceCode) == .slowDown(interval: nil))
        let approved = try await client.poll(providerId: "google.com", deviceCode: start.deviceCode)
        #expect(
            approved
                == .approved(
                    FederatedCredential(
                        providerId: "google.com", idToken: "SECRET.ID.TOKEN", accessToken: "SECRET-ACCESS")))

        let requests = await transport.requests
        #expect(
            requests.map(\.url) == ["https://oauth2.googleapis.com/device/code"]
                + Array(repeating: "https://oauth2.googleapis.com/token", count: 3))
        #expect(requests.allSatisfy { $0.method == .POST && $0.headers.first(name: "Accept") == "application/json" })
        #expect(requests.allSatisfy { $0.headers.first(name: "Content-Type") == "application/x-www-form-urlencoded" })
        #expect(Self.form(requests[0]) == ["client_id": "tv-client", "scope": "openid email profile"])
        #expect(
            Self.form(requests[1]) == [
                "grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": "SECRET-DEVICE",
                "client_id": "tv-client", "client_secret": "SECRET-CLIENT",
            ])
    }

    @Test("GitHub: errors come with HTTP 200; slow_down carries the new interval; an access token only")
    func github() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"device_code":"SECRET-DEVICE","user_code":"WDJB-MJHT","verification_uri":"https://github.com/login/device","expires_in":900,"interval":"5"}"#
            ),
            .json(200, #"{"error":"authorization_pending","error_description":"pending","error_uri":"https://docs"}"#),
            .json(200, #"{"error":"slow_down","interval":10}"#),
            .json(200, #"{"access_token":"SECRET-ACCESS","token_type":"bearer","scope":"read:user,user:email"}"#),
        ])
        let client = Self.client(transport, Self.github)
        #expect(try client.provider("github.com").yieldsIDToken == false)
        let start = try await client.start(providerId: "github.com")
        #expect(start.verificationUri == "https://github.com/login/device" && start.interval == 5)
        #expect(try await client.poll(providerId: "github.com", deviceCode: start.deviceCode) == .pending)
        #expect(
            try await client.poll(providerId: "github.com", deviceCode: start.deviceCode) == .slowDown(interval: 10))
        #expect(
            try await client.poll(providerId: "github.com", deviceCode: start.deviceCode)
                == .approved(FederatedCredential(providerId: "github.com", idToken: nil, accessToken: "SECRET-ACCESS")))
        let requests = await transport.requests
        #expect(requests[0].url == "https://github.com/login/device/code")
        #expect(requests[1].url == "https://github.com/login/oauth/access_token")
        #expect(Self.form(requests[0]) == ["client_id": "gh-client", "scope": "read:user user:email"])
    }

    @Test("an answer without interval polls every 5 seconds; verification_uri_complete is kept")
    func defaults() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"device_code":"d","user_code":"u","verification_uri":"https://idp/device","verification_uri_complete":"https://idp/device?user_code=u","expires_in":600}"#
            )
        ])
        let providers = [
            "oidc.corp": OAuthProviderConfiguration(
                clientId: "c", deviceAuthorizationEndpoint: "https://idp/device/code",
                tokenEndpoint: "https://idp/token",
                scopes: ["openid", "email"])
        ]
        let client = Self.client(transport, providers)
        #expect(try client.provider("oidc.corp").yieldsIDToken)
        let start = try await client.start(providerId: "oidc.corp")
        #expect(start.interval == 5 && start.expiresIn == 600)
        #expect(start.verificationUriComplete == "https://idp/device?user_code=u")
        #expect(await transport.requests.map(\.url) == ["https://idp/device/code"])
        #expect(await Self.form(transport.requests[0]) == ["client_id": "c", "scope": "openid email"])
    }

    @Test("a start answer without a device code, user code or verification URI is malformed")
    func malformedStart() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"device_code":"d","user_code":"u"}"#), .json(200, "<html>"),
        ])
        let client = Self.client(transport, Self.github)
        for _ in 0..<2 {
            let error = await #expect(throws: RemoteAuthError.self) {
                _ = try await client.start(providerId: "github.com")
            }
            guard case .malformedResponse? = error else {
                Issue.record("\(String(describing: error))")
                continue
            }
        }
    }
}
