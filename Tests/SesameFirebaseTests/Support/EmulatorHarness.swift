import Foundation
import SesameCore
import SesameEmulator
import SesameEmulatorTesting
import SesameFirebase
import SesameHTTP
import SesameLocalAPI
import SesameTesting
import Testing

/// A `SesameEmulator` on ephemeral loopback ports with the adapters pointed at it over real
/// HTTP, plus the emulator-only helpers tests need (OOB codes, admin calls, fault injection).
struct EmulatorHarness: Sendable {
    let emulator: SesameEmulator
    let configuration: FirebaseConfiguration
    let transport: AsyncHTTPClientTransport
    let auth: FirebaseAuthProvider
    let directory: FirebaseUsernameDirectory
    let time: EmulatorTime

    var authBase: String { "http://127.0.0.1:\(emulator.authPort)" }
    var databaseBase: String { "http://127.0.0.1:\(emulator.databasePort)" }

    /// Runs `body` against a fresh emulator and stops everything afterwards.
    static func with(_ body: (EmulatorHarness) async throws -> Void) async throws {
        let time = EmulatorTime()
        try await withEmulator(time: time) { emulator in
            let configuration = FirebaseConfiguration(
                apiKey: "fake-api-key", projectId: "demo-project",
                authEmulatorHost: "127.0.0.1:\(emulator.authPort)",
                databaseEmulatorHost: "127.0.0.1:\(emulator.databasePort)",
                connectTimeout: LoopbackTimeouts.connect, requestTimeout: .seconds(20)
            )
            let transport = AsyncHTTPClientTransport(configuration: configuration)
            let harness = EmulatorHarness(
                emulator: emulator, configuration: configuration, transport: transport,
                auth: FirebaseAuthProvider(configuration: configuration, transport: transport),
                directory: FirebaseUsernameDirectory(configuration: configuration, transport: transport)!,
                time: time
            )
            do {
                try await body(harness)
            } catch {
                await transport.shutdown()
                throw error
            }
            await transport.shutdown()
        }
    }

    /// Plain JSON calls to the emulator's own paths (admin, OOB codes, faults).
    var http: EmulatorHTTP { EmulatorHTTP(transport: transport) }

    /// The newest EMAIL_SIGNIN (or other) code the emulator holds for `email`.
    func oobCode(for email: String, type: String = "EMAIL_SIGNIN") async throws -> String {
        let codes = try await http.oobCodes(authBase)
        let match = codes.last { $0["email"]?.stringValue == email && $0["requestType"]?.stringValue == type }
        return try #require(match?["oobCode"]?.stringValue)
    }

    /// Disables an account the admin way (`Authorization: Bearer owner`).
    func disable(uid: String) async throws {
        let (status, _) = try await http.call(
            "POST", "\(authBase)/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:update",
            json: ["localId": .string(uid), "disableUser": true], headers: [("Authorization", "Bearer owner")]
        )
        #expect(status == 200)
    }

    /// Sets Sesame's fault-injection knobs on the auth port (`/sesame/v1/faults`).
    func faults(_ json: String) async throws {
        try await http.faults(authBase, try JSONValue.parse(json))
    }

    /// A fake IdP credential the emulator accepts: a strict-JSON claims object as id_token.
    static func google(sub: String, email: String? = nil, verified: Bool = false) -> FederatedCredential {
        var claims = #"{"sub":"\#(sub)""#
        if let email { claims += #","email":"\#(email)","email_verified":\#(verified)"# }
        claims += "}"
        return FederatedCredential(providerId: "google.com", idToken: claims, accessToken: nil)
    }
}

extension EmulatorHarness {
    /// Six new guests claim `name` at once; returns how many claims won and the uids that tried.
    func raceForName(_ name: String) async throws -> (wins: Int, contenders: [String]) {
        var sessions: [SignInResult] = []
        for _ in 0..<6 { sessions.append(try await auth.signUpAnonymously()) }
        let contenders = sessions
        let directory = self.directory
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for session in contenders {
                group.addTask { try await directory.claim(name, for: session.uid, idToken: session.idToken) }
            }
            var wins = 0
            for try await won in group where won { wins += 1 }
            return wins
        }
        return (wins, contenders.map(\.uid))
    }
}
