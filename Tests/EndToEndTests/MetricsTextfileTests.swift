import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 35, item 4: `metrics.textfile_path` with the real daemon and emulator. The file is in
/// Prometheus text format for node_exporter's textfile collector, rewritten after each change
/// (at most once a second), and `sesamectl metrics` prints it.
@Suite("sesamed: the metrics file", .serialized, .timeLimit(.minutes(3)))
struct MetricsTextfileTests {
    @Test(
        "written at start (the guest's sign-up, status, token times); refreshes, 429s by operation, connections and session changes counted; sesamectl metrics prints it; mode 0644",
        arguments: TestBackend.allCases)
    func countsWhatHappens(backend: TestBackend) async throws {
        let directory = try makeTemporaryDirectory("m")
        let path = directory + "/sesame.prom"
        let emulator = try await EmulatorProcess.start(backend: backend)
        let daemon: DaemonProcess
        do {
            daemon = try await DaemonProcess.start(
                emulator: emulator, settings: ["metrics": ["textfile_path": "\"\(path)\""]], directory: directory)
        } catch {
            await emulator.stop()
            throw error
        }
        do {
            try await counts(path: path, backend: backend, emulator: emulator, daemon: daemon)
        } catch {
            await daemon.cleanUp()
            await emulator.stop()
            throw error
        }
        await daemon.cleanUp()
        await emulator.stop()
    }

    private func counts(
        path: String, backend: TestBackend, emulator: EmulatorProcess, daemon: DaemonProcess
    ) async throws {
        try await eventually("the guest's sign-up is in the file") {
            let text = Self.read(path)
            return Self.value(
                text, "sesame_backend_requests_total", ["operation=\"signInAnonymously\"", "outcome=\"ok\""]) == 1
                && Self.value(text, "sesame_session_status", ["status=\"anonymous\""]) == 1
                && Self.value(text, "sesame_session_changes_total", ["reason=\"anonymous-created\""]) == 1
        }
        var attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o644)
        let issued = try #require(Self.value(Self.read(path), "sesame_token_issued_timestamp_seconds", []))
        #expect(abs(issued - Date().timeIntervalSince1970) < 120)

        let client = daemon.client()
        defer { Task { await client.close() } }
        _ = try await client.idToken(forceRefresh: true)
        try await eventually("one refresh and one connection counted") {
            let text = Self.read(path)
            return Self.value(text, "sesame_backend_requests_total", ["operation=\"refresh\"", "outcome=\"ok\""]) == 1
                && Self.value(text, "sesame_connections", []) == 1
                && (Self.value(text, "sesame_token_issued_timestamp_seconds", []) ?? 0) >= issued
        }

        try await emulator.faults([
            "failNext": 1, "failStatus": 429, "retryAfter": 30,
            "failMessage": .string(backend == .supabase ? "over_request_rate_limit" : "TOO_MANY_ATTEMPTS_TRY_LATER"),
            "pathPrefix": .string(emulator.refreshPathPrefix),
        ])
        _ = try? await client.idToken(forceRefresh: true)
        try await eventually("the 429 counted for refresh, and the state rate-limited") {
            let text = Self.read(path)
            return Self.value(
                text, "sesame_backend_requests_total", ["operation=\"refresh\"", "outcome=\"rate_limited\""]) == 1
                && Self.value(text, "sesame_connectivity", ["state=\"rate-limited\""]) == 1
        }

        let printed = try await daemon.ctl(["metrics", "--config", daemon.configPath])
        #expect(printed.status == 0)
        #expect(printed.stdout.contains("# TYPE sesame_backend_requests_total counter"), "\(printed.stdout)")
        #expect(!printed.stdout.contains("eyJ"), "no token in the metrics")

        await client.close()
        try await eventually("the connection's close counted") {
            Self.value(Self.read(path), "sesame_connections", []) == 0
        }
        attributes = try FileManager.default.attributesOfItem(atPath: path)
        let written = try #require(attributes[.modificationDate] as? Date)
        #expect(try await daemon.stop() == 0)
        // Written once more at stop.
        let last = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        #expect(last >= written)
    }

    @Test("metrics.textfile_path that is relative, not .prom or in no directory stops sesamed with 78 naming the key")
    func badPath() async throws {
        let directory = try makeTemporaryDirectory("c")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (path, says) in [
            ("metrics.prom", "must be an absolute path ending in .prom"),
            (directory + "/metrics.txt", "must be an absolute path ending in .prom"),
            (directory + "/none/metrics.prom", "the directory \(directory)/none does not exist"),
        ] {
            try "[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n[metrics]\ntextfile_path = \"\(path)\"\n".write(
                toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
            let result = try await runCommand(
                BuiltBinaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"])
            #expect(result.status == 78)
            #expect(
                result.stderr.contains("'metrics.textfile_path'") && result.stderr.contains(says), "\(result.stderr)")
        }
    }

    @Test("sesamectl metrics without a configured path says how to turn metrics on")
    func metricsOff() async throws {
        let directory = try makeTemporaryDirectory("c")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "[firebase]\napi_key = \"k\"\n".write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        let result = try await runCommand(
            BuiltBinaries.path("sesamectl"), ["metrics", "--config", directory + "/c.toml"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("metrics are off") && result.stderr.contains("metrics.textfile_path"),
            "\(result.stderr)")
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The value of the sample of `name` whose labels include all of `labels`.
    static func value(_ text: String, _ name: String, _ labels: [String]) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + "{") || line.hasPrefix(name + " ") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, labels.allSatisfy({ parts[0].contains($0) }) else { continue }
            return Double(parts[1])
        }
        return nil
    }
}
