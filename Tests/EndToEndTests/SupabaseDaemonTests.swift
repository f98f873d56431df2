import Foundation
import SesameClient
import SesameLocalAPI
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// The built `sesamed` with `backend.provider = "supabase"` against the built
/// `sesame-emulator`'s Supabase surface: the same protocol as on Firebase.
@Suite("sesamed against Supabase")
struct SupabaseDaemonTests {
    @Test("anonymous first, the Supabase backend is used, a guest upgrades in place, sign-out ends the session at the server")
    func smoke() async throws {
        let directory = try makeTemporaryDirectory("sb")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let emulator = try ChildProcess(
            Binaries.path("sesame-emulator"),
            ["--auth-port", "0", "--database-port", "0", "--supabase-port", "0"], logPrefix: directory + "/emulator")
        defer { if emulator.isRunning { emulator.signal(SIGKILL) } }
        func printed(_ prefix: String) async throws -> String {
            var value = ""
            try await waitUntil("the emulator prints \(prefix)") {
                guard let line = emulator.stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return false }
                value = String(line.dropFirst(prefix.count))
                return true
            }
            return value
        }
        let url = try await printed("sesame-emulator: supabase listening on ")
        let anonKey = try await printed("sesame-emulator: supabase anon key ")
        try """
            [backend]
            provider = "supabase"
            [supabase]
            url = "\(url)"
            anon_key = "\(anonKey)"
            [socket]
            path = "\(directory)/s.sock"
            """.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        let daemon = try ChildProcess(
            Binaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"],
            logPrefix: directory + "/sesamed")
        defer { if daemon.isRunning { daemon.signal(SIGKILL) } }

        let client = SesameClient(socketPath: directory + "/s.sock")
        var guest: SesameState?
        try await waitUntil("the daemon is anonymous") {
            guest = try await client.state()
            return guest?.status == .anonymous
        }
        let guestUid = try #require(guest?.user?.uid)
        #expect(daemon.stderr.contains("supabase \(url)"), "\(daemon.stderr)")
        let socketPath = directory + "/s.sock"
        let hello = try await Task.detached { try rawCall(socketPath, #"{"jsonrpc":"2.0","id":1,"method":"hello"}"#) }.value
        #expect(hello["result"]?["backend"] == "supabase")

        let account = try await client.createAccount(email: "ann@example.com", password: "secret-123")
        #expect(account.status == .authenticated && account.user?.uid == guestUid)
        #expect(account.user?.providers == ["password"] && account.user?.isAnonymous == false)
        let token = try await client.idToken(forceRefresh: true)
        #expect(token.uid == guestUid && token.signInProvider == "password")

        let signedOut = try await client.signOut()
        #expect(signedOut.status == .anonymous && signedOut.user?.uid != guestUid)
        // The account's session was ended at the server (POST /logout), not only forgotten.
        let (_, calls) = try await faultsCalls(url)
        #expect((calls["logout"] ?? 0) >= 1, "\(calls)")

        // A one-time code from the email completes a sign-in on the wire (Supabase sends codes):
        // the address's account, with the guest merged into it.
        _ = try await client.sendSignInLink(email: "code@example.com")
        let messages = try await emulatorJSON(url + "/sesame/v1/supabase/messages")["messages"] as? [[String: Any]] ?? []
        let otp = try #require(messages.last { $0["email"] as? String == "code@example.com" }?["otp"] as? String)
        let completed = try await Task.detached {
            try rawCall(
                socketPath,
                #"{"jsonrpc":"2.0","id":2,"method":"completeSignInLink","params":{"email":"code@example.com","code":"\#(otp)"}}"#)
        }.value
        #expect(completed["result"]?["state"]?["user"]?["email"] == "code@example.com", "\(completed)")
        #expect(completed["result"]?["merge"]?["fromUid"]?.stringValue == signedOut.user?.uid)

        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0)
        emulator.signal(SIGTERM)
        _ = try await emulator.waitForExit()
    }

    private func faultsCalls(_ url: String) async throws -> (Int, [String: Int]) {
        let object = try await emulatorJSON(url + "/sesame/v1/faults")
        let calls = (object["calls"] as? [String: Any] ?? [:]).compactMapValues { ($0 as? NSNumber)?.intValue ?? ($0 as? Int) }
        return (200, calls)
    }

    /// A GET of an emulator-only path, as a JSON object.
    private func emulatorJSON(_ url: String) async throws -> [String: Any] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: url)!)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}
