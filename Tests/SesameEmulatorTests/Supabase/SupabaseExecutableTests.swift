import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameEmulator

/// The built `sesame-emulator`, when it was built.
private let binary = BuiltBinaries.existing("sesame-emulator")

@Suite("The sesame-emulator executable with --supabase-port")
struct SupabaseExecutableTests {
    /// The keys `supabase start` prints for the development secret.
    static let wellKnownAnon =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0"
    static let wellKnownService =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU"

    @Test func inProcessKeysAreTheWellKnownLocalKeys() async throws {
        try await SupabaseTestEmulator.with { emu in
            #expect(emu.anonKey == Self.wellKnownAnon)
            #expect(emu.serviceKey == Self.wellKnownService)
        }
    }

    @Test(.enabled(if: binary != nil, "sesame-emulator was not built"))
    func printsTheSupabaseLinesWithTheWellKnownKeys() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-supa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let stdoutURL = work.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        let process = try await SpawnedProcess.launch(
            binary!,
            ["--auth-port", "0", "--database-port", "0", "--supabase-port", "0", "--supabase-delete-function", "none"],
            environment: SpawnedProcess.environment(), stdout: .file(stdoutURL.path))
        defer { if process.isRunning { process.signal(SIGTERM) } }

        // The lines appear once all ports are bound.
        var lines: [String] = []
        try await eventually("every port and key is printed", timeout: .seconds(30)) {
            lines = ((try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "").split(separator: "\n").map(
                String.init)
            return lines.count >= 7
        }
        #expect(lines.count == 7)
        // The keys `supabase start` prints (publishable and secret), then the legacy JWT keys.
        #expect(lines[3] == "sesame-emulator: supabase publishable key sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH")
        #expect(lines[4] == "sesame-emulator: supabase secret key sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz")
        let url = try #require(lines.first { $0.hasPrefix("sesame-emulator: supabase listening on http://127.0.0.1:") })
        #expect(Int(url.split(separator: ":").last ?? "") ?? 0 > 0)
        #expect(lines.contains("sesame-emulator: supabase anon key \(SupabaseExecutableTests.wellKnownAnon)"))
        #expect(
            lines.contains("sesame-emulator: supabase service_role key \(SupabaseExecutableTests.wellKnownService)"))
        process.signal(SIGTERM)
        try await waitForExit(of: process)
        #expect(process.end == .exited(0))
    }

    @Test(
        "a --supabase-jwt-keys that is neither a JSON array nor a file: exit 64, and the error never repeats the value",
        .enabled(if: binary != nil, "sesame-emulator was not built"))
    func aBadKeySetIsRefusedWithoutRepeatingIt() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-jwks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let stderrURL = work.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        // An inline key (not an array) holding private material.
        let secret = "c2VjcmV0LWtleS1tYXRlcmlhbC1vZi10aGUtdGVzdA"
        let process = try await SpawnedProcess.launch(
            binary!,
            [
                "--auth-port", "0", "--database-port", "0", "--supabase-port", "0", "--supabase-jwt-keys",
                #"{"kty":"oct","kid":"k","key_ops":["sign"],"k":"\#(secret)"}"#,
            ],
            environment: SpawnedProcess.environment(), stderr: .file(stderrURL.path))
        try await waitForExit(of: process)
        #expect(process.end == .exited(64))
        let told = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        #expect(told.contains("--supabase-jwt-keys: the value is neither a JSON array nor a readable file"), "\(told)")
        #expect(!told.contains(secret))
    }
}
