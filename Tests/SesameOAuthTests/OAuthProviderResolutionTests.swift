import Foundation
import Logging
import SesameCore
import SesameHTTP
import SesameOAuth
import SesameTesting
import Testing

/// Which endpoints and client a provider id gets: built-in, configured, unsupported, or the
/// emulator's fake provider (docs/configuration.md, "Sign-in flows").
@Suite("OAuth device client: provider resolution")
struct OAuthProviderResolutionTests {
    static let emulator = "http://127.0.0.1:9099"
    static let deviceAnswer = ScriptedTransport.Reply.json(
        200, #"{"device_code":"d","user_code":"u","verification_uri":"https://v","expires_in":60}"#)

    @Test(
        "a provider with no endpoints is operation-not-allowed naming the endpoint key; without a client id naming client_id"
    )
    func unsupported() async throws {
        let client = OAuthDeviceClient(
            providers: ["oidc.half": OAuthProviderConfiguration(clientId: "c")], transport: ScriptedTransport([]))
        for id in ["microsoft.com", "oidc.half"] {
            let error = #expect(throws: RemoteAuthError.self) { _ = try client.provider(id) }
            guard case .unsupported(let message)? = error else {
                Issue.record("\(id): \(String(describing: error))")
                continue
            }
            #expect(message.contains("[oauth.\"\(id)\"] device_authorization_endpoint"), "\(message)")
        }
        for id in ["google.com", "github.com"] {
            let error = #expect(throws: RemoteAuthError.self) { _ = try client.provider(id) }
            guard case .unsupported(let message)? = error else {
                Issue.record("\(id): \(String(describing: error))")
                continue
            }
            #expect(message.contains("[oauth.\"\(id)\"] client_id"), "\(message)")
            #expect(error?.authError.reason == .operationNotAllowed)
        }
        // Nothing was sent: the start fails the same way before any call.
        await #expect(throws: RemoteAuthError.self) { _ = try await client.start(providerId: "google.com") }
    }

    @Test("a table's endpoints, client and scopes replace the built-in ones; ID tokens follow the openid scope")
    func configured() async throws {
        let transport = ScriptedTransport([Self.deviceAnswer])
        let providers = [
            "google.com": OAuthProviderConfiguration(
                clientId: "c", deviceAuthorizationEndpoint: "https://proxy/device",
                tokenEndpoint: "https://proxy/token",
                scopes: ["email"]),
            "oidc.corp": OAuthProviderConfiguration(
                clientId: "c", deviceAuthorizationEndpoint: "https://kc/device", tokenEndpoint: "https://kc/token"),
        ]
        let client = OAuthDeviceClient(providers: providers, transport: transport)
        _ = try await client.start(providerId: "google.com")
        #expect(await transport.requests.map(\.url) == ["https://proxy/device"])
        #expect(try client.provider("google.com").yieldsIDToken == false)
        // No scopes: openid email profile, so an ID token.
        #expect(try client.provider("oidc.corp").yieldsIDToken)
    }

    @Test("against an emulator every provider without endpoints or client id uses its fake provider")
    func emulatorDefaults() async throws {
        let transport = ScriptedTransport([
            Self.deviceAnswer, .json(400, #"{"error":"authorization_pending"}"#), Self.deviceAnswer,
        ])
        let providers = [
            "github.com": OAuthProviderConfiguration(scopes: ["user:email"]),
            "oidc.real": OAuthProviderConfiguration(
                clientId: "real", deviceAuthorizationEndpoint: "https://kc/device", tokenEndpoint: "https://kc/token"),
        ]
        let client = OAuthDeviceClient(providers: providers, emulatorBase: Self.emulator + "/", transport: transport)
        #expect(try client.provider("google.com").yieldsIDToken)
        #expect(try client.provider("github.com").yieldsIDToken == false)
        #expect(try client.provider("oidc.anything").yieldsIDToken)
        let start = try await client.start(providerId: "google.com")
        _ = try await client.poll(providerId: "oidc.anything", deviceCode: start.deviceCode)
        _ = try await client.start(providerId: "oidc.real")
        let requests = await transport.requests
        #expect(
            requests.map(\.url) == [
                Self.emulator + "/emulator/v1/idp/google.com/device/code",
                Self.emulator + "/emulator/v1/idp/oidc.anything/token", "https://kc/device",
            ])
        let form = PercentEncoding.formDictionary(requests[0].bodyText ?? "")
        #expect(form == ["client_id": "sesame-emulator", "scope": "openid email profile"])
        #expect(PercentEncoding.formDictionary(requests[2].bodyText ?? "")["client_id"] == "real")
    }

    @Test("no log line, error or description carries the device code, the client secret or a token")
    func noSecrets() async throws {
        let (logger, storage) = RecordingLogHandler.logger()
        let transport = ScriptedTransport([
            .json(200, #"{"device_code":"SECRET-DEVICE","user_code":"u","verification_uri":"https://v"}"#),
            .json(400, #"{"error":"authorization_pending","error_description":"SECRET-DEVICE"}"#),
            .json(400, #"{"error":"SECRET-DEVICE"}"#),
            .json(200, #"{"access_token":"SECRET-ACCESS","id_token":"SECRET-ID"}"#),
        ])
        let configuration = OAuthProviderConfiguration(clientId: "c", clientSecret: "SECRET-CLIENT")
        let client = OAuthDeviceClient(providers: ["google.com": configuration], transport: transport, logger: logger)
        let start = try await client.start(providerId: "google.com")
        _ = try await client.poll(providerId: "google.com", deviceCode: start.deviceCode)
        let error = await #expect(throws: RemoteAuthError.self) {
            _ = try await client.poll(providerId: "google.com", deviceCode: start.deviceCode)
        }
        _ = try await client.poll(providerId: "google.com", deviceCode: start.deviceCode)
        let said = storage.all + ["\(String(describing: error))", "\(start.deviceCode)", "\(configuration)"]
        #expect(storage.all.count == 4)
        for line in said {
            #expect(!line.contains("SECRET"), "\(line)")
        }
    }
}
