import Foundation
import SesameCore
import SesameHTTP
import SesameLocalAPI
import SesameOAuth
import SesameSupabase
import SesameTesting
import Testing

/// The OAuth device client against the emulator's fake identity providers (its default against
/// an emulator, no `[oauth]` table), and the provider's token then taken by each backend.
/// Needs the emulator's fake providers (issue 20, emulator side).
@Suite("OAuth device client against the emulator's fake providers")
struct DeviceFlowEmulatorTests {
    /// `POST <base>/emulator/v1/idp/<id>/device/approve {userCode, email, deny?}`.
    static func approve(
        _ helper: EmulatorHTTP, base: String, providerId: String, userCode: String, email: String, deny: Bool = false
    ) async throws {
        let (status, body) = try await helper.call(
            "POST", "\(base)/emulator/v1/idp/\(providerId)/device/approve",
            json: ["userCode": .string(userCode), "email": .string(email), "deny": .bool(deny)])
        #expect(status == 200, "\(body.jsonString)")
    }

    @Test("Firebase: Google's device flow, approved, signs in with its ID token; GitHub's with its access token")
    func firebase() async throws {
        try await FirebaseConformanceBackend.with { b in
            let transport = AsyncHTTPClientTransport(
                connectTimeout: LoopbackTimeouts.connect, requestTimeout: .seconds(20))
            let client = OAuthDeviceClient(providers: [:], emulatorBase: b.authBase, transport: transport)
            do {
                for (providerId, email) in [("google.com", "gail@example.com"), ("github.com", "gus@example.com")] {
                    let waiting = try await client.start(providerId: providerId)
                    #expect(waiting.verificationUri.hasPrefix(b.authBase + "/emulator/v1/idp/\(providerId)/device"))
                    #expect(try await client.poll(providerId: providerId, deviceCode: waiting.deviceCode) == .pending)
                    // A poll sooner than the interval is slow_down: approve a fresh code before its first poll.
                    let start = try await client.start(providerId: providerId)
                    try await Self.approve(
                        b.helper, base: b.authBase, providerId: providerId, userCode: start.userCode, email: email)
                    guard
                        case .approved(let credential) = try await client.poll(
                            providerId: providerId, deviceCode: start.deviceCode)
                    else { throw HarnessError("\(providerId) not approved") }
                    #expect((credential.idToken != nil) == (providerId == "google.com"))
                    let result = try await b.provider.signIn(federated: credential, linkingTo: nil)
                    let user = try await b.provider.lookup(result.idToken)
                    #expect(user.email == email && user.providers.contains(providerId))
                }
                let denied = try await client.start(providerId: "google.com")
                try await Self.approve(
                    b.helper, base: b.authBase, providerId: "google.com", userCode: denied.userCode,
                    email: "x@example.com",
                    deny: true)
                #expect(try await client.poll(providerId: "google.com", deviceCode: denied.deviceCode) == .denied)
            } catch {
                await transport.shutdown()
                throw error
            }
            await transport.shutdown()
        }
    }

    @Test("Supabase: Google's device flow, approved, signs in with its ID token at the id_token grant")
    func supabase() async throws {
        try await SupabaseConformanceBackend.with { b in
            let transport = AsyncHTTPClientTransport(
                connectTimeout: LoopbackTimeouts.connect, requestTimeout: .seconds(20))
            let client = OAuthDeviceClient(providers: [:], emulatorBase: b.url, transport: transport)
            do {
                let provider = try client.provider("google.com")
                try b.supabase.checkFederatedSignIn(providerId: "google.com", yieldsIDToken: provider.yieldsIDToken)
                let start = try await client.start(providerId: "google.com")
                try await Self.approve(
                    b.helper, base: b.url, providerId: "google.com", userCode: start.userCode, email: "sam@example.com")
                guard
                    case .approved(let credential) = try await client.poll(
                        providerId: "google.com", deviceCode: start.deviceCode)
                else { throw HarnessError("not approved") }
                let result = try await b.supabase.signIn(federated: credential, linkingTo: nil)
                let user = try await b.supabase.lookup(result.idToken)
                #expect(user.email == "sam@example.com" && user.providers.contains("google.com"))
                // GitHub yields no ID token: Supabase refuses before anyone is sent anywhere.
                #expect(throws: RemoteAuthError.self) {
                    try b.supabase.checkFederatedSignIn(
                        providerId: "github.com", yieldsIDToken: try client.provider("github.com").yieldsIDToken)
                }
            } catch {
                await transport.shutdown()
                throw error
            }
            await transport.shutdown()
        }
    }
}
