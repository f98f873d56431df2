import Foundation
import SesameClient
import SesameCore
import SesameLocalAPI
import Testing

/// What the username suites share: direct reads of the emulator's Realtime Database, faults on
/// it, and a daemon with merges not held.
protocol UsernameTestHelpers {}

extension UsernameTestHelpers {
    static var namespace: String { "\(EmulatorProcess.project)-default-rtdb" }

    /// The value at a database path (`users/usernames/<key>`), read directly from the emulator.
    func database(_ emulator: EmulatorProcess, _ path: String) async throws -> JSONValue {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        let (status, body) = try await emulator.request(
            "GET", "/\(encoded).json?ns=\(Self.namespace)", port: emulator.databasePort)
        #expect(status == 200, "GET \(path): \(status)")
        return body
    }

    func owner(_ emulator: EmulatorProcess, _ key: String) async throws -> String? {
        try await database(emulator, "users/usernames/\(key)").stringValue
    }

    func details(_ emulator: EmulatorProcess, _ uid: String) async throws -> (username: String?, email: String?) {
        let body = try await database(emulator, "users/details/\(uid)")
        return (body["username"]?.stringValue, body["email"]?.stringValue)
    }

    func databaseFaults(_ emulator: EmulatorProcess, _ settings: JSONValue?) async throws {
        if let settings {
            try await emulator.request("POST", "/sesame/v1/faults", json: settings, port: emulator.databasePort)
        } else {
            try await emulator.request("DELETE", "/sesame/v1/faults", port: emulator.databasePort)
        }
    }

    func expectReason(
        _ reason: String, code: Int = 1000, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("no error; expected \(reason)", sourceLocation: sourceLocation)
        } catch let error as SesameClientError {
            #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    func attempt(_ client: SesameClient, _ name: String) async -> Result<String?, any Error> {
        do { return .success(try await client.setUsername(name).user?.username) } catch { return .failure(error) }
    }

    func withUsernameDaemon(
        settings: [String: [String: String]] = ["merge": ["hold": "0"]],
        _ body: (EmulatorProcess, DaemonProcess, SesameClient) async throws -> Void
    ) async throws {
        let emulator = try await EmulatorProcess.start()
        let daemon = try await DaemonProcess.start(emulator: emulator, settings: settings)
        let client = daemon.client()
        do {
            try await body(emulator, daemon, client)
        } catch {
            await client.close()
            await daemon.cleanUp()
            await emulator.stop()
            throw error
        }
        await client.close()
        await daemon.cleanUp()
        await emulator.stop()
    }
}
