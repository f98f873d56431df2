import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameEmulator

/// The built `sesame-emulator`, when it was built.
private let emulatorBinary = BuiltBinaries.existing("sesame-emulator")

@Suite("The sesame-emulator executable")
struct ExecutableTests {
    @Test(.enabled(if: emulatorBinary != nil, "sesame-emulator was not built"))
    func printsReadyLinesAndExportsOnSIGTERM() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-exe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let stdoutURL = work.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        let process = try await SpawnedProcess.launch(
            emulatorBinary!,
            [
                "--auth-port", "0", "--database-port", "0", "--export-on-exit",
                work.appendingPathComponent("export").path,
            ],
            environment: SpawnedProcess.environment(), stdout: .file(stdoutURL.path))
        defer { if process.isRunning { process.signal(SIGTERM) } }

        // The lines appear once both ports are bound.
        var lines: [String] = []
        try await eventually("both ports are printed", timeout: .seconds(30)) {
            lines = ((try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "").split(separator: "\n").map(
                String.init)
            return lines.count >= 2
        }
        #expect(lines.count == 2)
        let pattern = #/^sesame-emulator: (auth|database) listening on http://127\.0\.0\.1:(\d+)$/#
        let ports = lines.compactMap { line -> (String, Int)? in
            guard let match = line.wholeMatch(of: pattern) else { return nil }
            return (String(match.1), Int(match.2)!)
        }
        #expect(ports.map(\.0) == ["auth", "database"])
        #expect(ports.allSatisfy { $0.1 > 0 })

        let auth = try #require(ports.first { $0.0 == "auth" }?.1)
        var request = HTTPClientRequest(
            url: "http://127.0.0.1:\(auth)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: "{}"))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        #expect(response.status.code == 200)
        _ = try await response.body.collect(upTo: 1 << 20)

        process.signal(SIGTERM)
        try await waitForExit(of: process)
        #expect(process.end == .exited(0))
        #expect(
            FileManager.default.fileExists(atPath: work.appendingPathComponent("export/auth_export/accounts.json").path)
        )
    }
}
