import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// `backend.request_timeout` in `sesamed.toml`, with the built daemon.
@Suite("sesamed backend.request_timeout")
struct RequestTimeoutTests {
    @Test("a request_timeout that is not a number of seconds from 0.1 to 300 stops sesamed with 78 naming the key")
    func invalidValues() async throws {
        try await expectRefused(
            section: "backend", key: "request_timeout", values: ["0", "-1", "0.05", "301", "\"10\"", "true", "nan"])
    }

    @Test(
        "the sample etc/sesamed.toml, request_timeout and release_when_idle included, has only known keys: it stops on the empty api_key alone"
    )
    func sampleConfiguration() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let sample = try String(contentsOf: root.appendingPathComponent("etc/sesamed.toml"), encoding: .utf8)
        #expect(sample.contains("request_timeout = 10"))
        #expect(sample.contains("release_when_idle = 5"))
        let directory = try makeTemporaryDirectory("rt")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try sample.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        let result = try await runCommand(
            BuiltBinaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("'firebase.api_key' is required"), "\(result.stderr)")
    }

    @Test(
        "a backend answering later than request_timeout (here 1.5 s, answering after 3 s): network-request-failed, the session is kept"
    )
    func slowBackendTimesOut() async throws {
        try await withEmulatorAndDaemon(settings: ["backend": ["request_timeout": "1.5"]]) { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let uid = try await client.state().user?.uid
            try await emulator.faults(["latencyMs": 3_000, "pathPrefix": "/securetoken.googleapis.com"])
            let error = await #expect(throws: SesameClientError.self) {
                _ = try await client.idToken(forceRefresh: true)
            }
            #expect(error?.reason == "network-request-failed", "\(String(describing: error))")
            try await emulator.clearFaults()
            _ = try await client.idToken(forceRefresh: true)
            #expect(try await client.state().user?.uid == uid)
        }
    }
}
