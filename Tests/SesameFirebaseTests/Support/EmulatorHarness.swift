import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SesameCore
import SesameEmulator
import SesameFirebase
import SesameHTTP
import Synchronization
import Testing

/// The emulator's clock, moved by hand (revocation is second-granular, so tests that need a
/// token to be older than a change advance it instead of sleeping).
final class EmulatorTime: Sendable {
    private let milliseconds = Mutex<Int>(1_800_000_000_000)

    var clock: EmulatorClock { EmulatorClock { [self] in milliseconds.withLock { $0 } } }

    func advance(seconds: Int) { milliseconds.withLock { $0 += seconds * 1000 } }
}

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
        let emulator = try await SesameEmulator.start(
            EmulatorConfiguration(
                host: "127.0.0.1", authPort: 0, databasePort: 0, projectId: "demo-project", clock: time.clock
            )
        )
        let configuration = FirebaseConfiguration(
            apiKey: "fake-api-key", projectId: "demo-project",
            authEmulatorHost: "127.0.0.1:\(emulator.authPort)",
            databaseEmulatorHost: "127.0.0.1:\(emulator.databasePort)",
            connectTimeout: .seconds(2), requestTimeout: .seconds(20)
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
            await emulator.stop()
            throw error
        }
        await transport.shutdown()
        await emulator.stop()
    }

    /// A plain HTTP call to the emulator (admin and emulator-only paths), as JSON.
    func call(
        _ method: String, _ url: String, json: String? = nil, headers: [(String, String)] = []
    ) async throws -> (status: Int, body: Any?) {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let body = try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView), options: [.fragmentsAllowed])
        return (Int(response.status.code), body)
    }

    /// The newest EMAIL_SIGNIN (or other) code the emulator holds for `email`.
    func oobCode(for email: String, type: String = "EMAIL_SIGNIN") async throws -> String {
        let (_, body) = try await call("GET", "\(authBase)/emulator/v1/projects/demo-project/oobCodes")
        let codes = (body as? [String: Any])?["oobCodes"] as? [[String: Any]] ?? []
        let match = codes.last { $0["email"] as? String == email && $0["requestType"] as? String == type }
        return try #require(match?["oobCode"] as? String)
    }

    /// Disables an account the admin way (`Authorization: Bearer owner`).
    func disable(uid: String) async throws {
        let (status, _) = try await call(
            "POST", "\(authBase)/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:update",
            json: #"{"localId":"\#(uid)","disableUser":true}"#, headers: [("Authorization", "Bearer owner")]
        )
        #expect(status == 200)
    }

    /// Sets Sesame's fault-injection knobs on the auth port (`/sesame/v1/faults`).
    func faults(_ json: String) async throws {
        let (status, _) = try await call("POST", "\(authBase)/sesame/v1/faults", json: json)
        #expect(status == 200)
    }

    /// A fake IdP credential the emulator accepts: a strict-JSON claims object as id_token.
    static func google(sub: String, email: String? = nil, verified: Bool = false) -> FederatedCredential {
        var claims = #"{"sub":"\#(sub)""#
        if let email { claims += #","email":"\#(email)","email_verified":\#(verified)"# }
        claims += "}"
        return FederatedCredential(providerId: "google.com", idToken: claims, accessToken: nil)
    }
}
