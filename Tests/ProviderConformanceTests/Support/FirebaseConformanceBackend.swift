import Foundation
import SesameCore
import SesameEmulator
import SesameEmulatorTesting
import SesameFirebase
import SesameHTTP
import SesameLocalAPI
import SesameTesting

/// The Firebase adapter against an in-process `SesameEmulator` on ephemeral loopback ports.
struct FirebaseConformanceBackend: ProviderConformanceBackend {
    let emulator: SesameEmulator
    let provider: any RemoteAuthProvider
    let helper: EmulatorHTTP

    var authBase: String { "http://127.0.0.1:\(emulator.authPort)" }

    static func with(
        _ configuration: EmulatorConfiguration = EmulatorConfiguration(),
        _ body: (FirebaseConformanceBackend) async throws -> Void
    ) async throws {
        try await withEmulator(configuration) { emulator in
            let configuration = FirebaseConfiguration(
                apiKey: "fake-api-key", projectId: "demo-project", authEmulatorHost: "127.0.0.1:\(emulator.authPort)",
                connectTimeout: LoopbackTimeouts.connect, requestTimeout: .seconds(20))
            let transport = AsyncHTTPClientTransport(configuration: configuration)
            let backend = FirebaseConformanceBackend(
                emulator: emulator, provider: FirebaseAuthProvider(configuration: configuration, transport: transport),
                helper: EmulatorHTTP(transport: transport))
            do {
                try await body(backend)
            } catch {
                await transport.shutdown()
                throw error
            }
            await transport.shutdown()
        }
    }

    func emailSignInProof(for email: String) async throws -> EmailSignInProof {
        let codes = try await helper.oobCodes(authBase)
        let match = codes.last { $0["email"]?.stringValue == email && $0["requestType"] == "EMAIL_SIGNIN" }
        guard let link = match?["oobLink"]?.stringValue else { throw HarnessError("no sign-in link for \(email)") }
        return .link(link)
    }

    /// The Auth emulator takes a strict-JSON claims object as an unsigned Google ID token.
    func federatedCredential(subject: String, email: String) -> FederatedCredential? {
        let claims = #"{"sub":"\#(subject)","email":"\#(email)","email_verified":true}"#
        return FederatedCredential(providerId: "google.com", idToken: claims, accessToken: nil)
    }

    func failNext(_ count: Int, status: Int) async throws {
        try await helper.faults(authBase, ["failNext": .integer(Int64(count)), "failStatus": .integer(Int64(status))])
    }

    func clearFaults() async throws {
        try await helper.clearFaults(authBase)
    }
}
