import Foundation
import SesameClient
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `backend.provider` and `[supabase]` in `sesamed.toml`, with the built daemon.
@Suite("sesamed backend configuration")
struct BackendConfigurationTests {
    /// The service_role key `supabase start` prints (an HS256 JWT of its development secret).
    static let legacyServiceRoleKey =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU"

    @Test("backend errors stop sesamed with 78 and a message naming the key")
    func errors() async throws {
        let directory = try makeTemporaryDirectory("b")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases: [(String, String)] = [
            ("[backend]\nprovider = \"supabase\"\n", "supabase.url"),
            ("[backend]\nprovider = \"supabase\"\n[supabase]\nanon_key = \"k\"\n", "supabase.url"),
            (
                "[backend]\nprovider = \"supabase\"\n[supabase]\nurl = \"127.0.0.1:54321\"\nanon_key = \"k\"\n",
                "supabase.url"
            ),
            ("[backend]\nprovider = \"supabase\"\n[supabase]\nurl = \"http://127.0.0.1:54321\"\n", "supabase.anon_key"),
            (
                "[backend]\nprovider = \"supabase\"\n[supabase]\nurl = \"https://p.supabase.co/auth/v1/\"\nanon_key = \"k\"\n",
                "supabase.url"
            ),
            (
                "[backend]\nprovider = \"supabase\"\n[supabase]\nurl = \"http://h\"\nanon_key = \"k\"\ndelete_function = \"x; drop\"\n",
                "supabase.delete_function"
            ),
            (
                "[backend]\nprovider = \"cognito\"\n[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n",
                "backend.provider"
            ),
            ("[backend]\nprovider = 1\n", "backend.provider"),
            ("[supabase]\nurl = \"http://h\"\nanon_key = \"k\"\n", "firebase.api_key"),
            ("[supabase]\nurls = \"http://h\"\n", "supabase.urls"),
            // The secret key, new or legacy, never goes in a configuration file.
            (
                "[backend]\nprovider = \"supabase\"\n[supabase]\nurl = \"http://h\"\nanon_key = \"sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz\"\n",
                "supabase.anon_key"
            ),
            (
                "[backend]\nprovider = \"supabase\"\n[supabase]\nurl = \"http://h\"\nanon_key = \"\(Self.legacyServiceRoleKey)\"\n",
                "supabase.anon_key"
            ),
        ]
        for (text, key) in cases {
            try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
            let result = try await runCommand(
                BuiltBinaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"])
            #expect(result.status == 78, "\(text)")
            #expect(result.stderr.contains(key), "\(text) → \(result.stderr)")
        }
    }

    @Test("with both sections the named one is used and the other is reported as ignored")
    func bothSections() async throws {
        let directory = try makeTemporaryDirectory("b")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Nothing listens on port 1: the daemon starts signed out and keeps retrying.
        let text = """
            [backend]
            provider = "supabase"
            [supabase]
            url = "http://127.0.0.1:1"
            anon_key = "anon"
            [firebase]
            api_key = "k"
            project_id = "p"
            [socket]
            path = "\(directory)/s.sock"
            """
        try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        let daemon = try await ChildProcess(
            BuiltBinaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"],
            logPrefix: directory + "/sesamed")
        defer { if daemon.isRunning { daemon.signal(SIGKILL) } }
        // Offline means the background work has tried the backend: the daemon's services run
        // (and handle SIGTERM).
        let client = SesameClient(socketPath: directory + "/s.sock")
        try await eventually("sesamed is offline") {
            let state = try await client.state()
            return state.status == .signedOut && state.connectivity == .offline
        }
        try await eventually("sesamed logged that it is ready") { daemon.stderr.contains("sesamed is ready") }
        #expect(daemon.stderr.contains("[firebase] is ignored: backend.provider is \"supabase\""), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("supabase http://127.0.0.1:1"), "\(daemon.stderr)")
        daemon.signal(SIGTERM)
        let status = try await daemon.waitForExit()
        #expect(status == 0, "exit \(status): \(daemon.stderr)")
    }
}
