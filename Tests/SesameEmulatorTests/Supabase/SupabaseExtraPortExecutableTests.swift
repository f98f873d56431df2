import Foundation
import SesameTesting
import Testing

/// The built `sesame-emulator`, when it was built.
private let binary = BuiltBinaries.existing("sesame-emulator")

@Suite("The sesame-emulator executable with --supabase-extra-port")
struct SupabaseExtraPortExecutableTests {
    /// Each extra port's line follows the main Supabase line; the service_role line stays last.
    @Test(.enabled(if: binary != nil, "sesame-emulator was not built"))
    func printsALinePerExtraPortBeforeTheKeys() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-extra-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let stdoutURL = work.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        let process = try await SpawnedProcess.launch(
            binary!,
            [
                "--auth-port", "0", "--database-port", "0", "--supabase-port", "0",
                "--supabase-extra-port", "0:layout=gotrue,autoconfirm=false,signup=false",
                "--supabase-extra-port", "0",
            ],
            environment: SpawnedProcess.environment(), stdout: .file(stdoutURL.path))
        defer { if process.isRunning { process.signal(SIGTERM) } }
        var lines: [String] = []
        try await eventually("every port and key is printed", timeout: .seconds(30)) {
            lines = ((try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "").split(separator: "\n").map(
                String.init)
            return lines.count >= 9
        }
        #expect(lines.count == 9)
        #expect(lines[2].hasPrefix("sesame-emulator: supabase listening on http://127.0.0.1:"))
        for line in lines[3...4] {
            #expect(line.hasPrefix("sesame-emulator: supabase extra port listening on http://127.0.0.1:"))
            #expect(Int(line.split(separator: ":").last ?? "") ?? 0 > 0)
        }
        #expect(lines[8].hasPrefix("sesame-emulator: supabase service_role key "))
        process.signal(SIGTERM)
        try await waitForExit(of: process)
        #expect(process.end == .exited(0))
    }

    /// An unknown setting, a bad value, or an extra port without `--supabase-port` is a usage error.
    @Test(.enabled(if: binary != nil, "sesame-emulator was not built"))
    func refusesBadExtraPortsAtStart() async throws {
        for arguments in [
            ["--supabase-port", "0", "--supabase-extra-port", "0:colour=blue"],
            ["--supabase-port", "0", "--supabase-extra-port", "0:autoconfirm=maybe"],
            ["--supabase-port", "0", "--supabase-extra-port", "0:jwt-secret=short"],
            ["--supabase-extra-port", "0"],
        ] {
            let process = try await SpawnedProcess.launch(
                binary!, ["--auth-port", "0", "--database-port", "0"] + arguments,
                environment: SpawnedProcess.environment())
            defer { if process.isRunning { process.signal(SIGTERM) } }
            try await waitForExit(of: process)
            #expect(process.end == .exited(64), "\(arguments)")
        }
    }
}
