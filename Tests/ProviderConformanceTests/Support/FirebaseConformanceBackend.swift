import Foundation
import NIOHTTP1
import SesameCore
import SesameEmulator
import SesameFirebase
import SesameHTTP
import SesameTesting

/// The Firebase adapter against an in-process `SesameEmulator` on ephemeral loopback ports.
struct FirebaseConformanceBackend: ProviderConformanceBackend {
    let emulator: SesameEmulator
    let provider: any RemoteAuthProvider
    let helper: HTTPHelper

    var authBase: String { "http://127.0.0.1:\(emulator.authPort)" }

    static func with(_ body: (FirebaseConformanceBackend) async throws -> Void) async throws {
        let emulator = try await SesameEmulator.start(
            EmulatorConfiguration(host: "127.0.0.1", authPort: 0, databasePort: 0, projectId: "demo-project"))
        let configuration = FirebaseConfiguration(
            apiKey: "fake-api-key", projectId: "demo-project", authEmulatorHost: "127.0.0.1:\(emulator.authPort)",
            connectTimeout: .seconds(2), requestTimeout: .seconds(20))
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let backend = FirebaseConformanceBackend(
            emulator: emulator, provider: FirebaseAuthProvider(configuration: configuration, transport: transport),
            helper: HTTPHelper(transport: transport))
        do {
            try await body(backend)
        } catch {
            await transport.shutdown()
            await emulator.stop()
            throw error
        }
        await transport.shutdown()
        await emulator.stop()
    }

    func emailSignInProof(for email: String) async throws -> EmailSignInProof {
        let (_, body) = try await helper.call(.GET, authBase + "/emulator/v1/projects/demo-project/oobCodes")
        let codes = (body as? [String: Any])?["oobCodes"] as? [[String: Any]] ?? []
        let match = codes.last { $0["email"] as? String == email && $0["requestType"] as? String == "EMAIL_SIGNIN" }
        guard let link = match?["oobLink"] as? String else { throw EmulatorBinaryError("no sign-in link for \(email)") }
        return .link(link)
    }

    /// The Auth emulator takes a strict-JSON claims object as an unsigned Google ID token.
    func federatedCredential(subject: String, email: String) -> FederatedCredential? {
        let claims = #"{"sub":"\#(subject)","email":"\#(email)","email_verified":true}"#
        return FederatedCredential(providerId: "google.com", idToken: claims, accessToken: nil)
    }

    func failNext(_ count: Int, status: Int) async throws {
        try await helper.faults(authBase, #"{"failNext":\#(count),"failStatus":\#(status)}"#)
    }

    func clearFaults() async throws {
        try await helper.call(.DELETE, authBase + "/sesame/v1/faults")
    }
}
