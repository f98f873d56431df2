import Foundation
import SesameClient
import SesameLocalAPI
import Testing

/// The built `sesamed` with `backend.provider = "supabase"` against the built
/// `sesame-emulator`'s Supabase surface: the same protocol as on Firebase.
@Suite("sesamed against Supabase")
struct SupabaseDaemonTests {
    @Test("anonymous first, the Supabase backend is used, a guest upgrades in place, sign-out ends the session at the server")
    func smoke() async throws {
        try await withEmulatorAndDaemon(backend: .supabase) { emulator, daemon in
            let url = try #require(emulator.supabase?.url)
            let client = daemon.client()
            defer { Task { await client.close() } }
            let guest = try await client.state()
            let guestUid = try #require(guest.user?.uid)
            #expect(daemon.log.contains("supabase \(url)"), "\(daemon.log)")
            let socketPath = daemon.socketPath
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
            let calls = try await emulator.calls()
            #expect((calls["logout"] ?? 0) >= 1, "\(calls)")

            // A one-time code from the email completes a sign-in on the wire (Supabase sends codes):
            // the address's account, with the guest merged into it.
            _ = try await client.sendSignInLink(email: "code@example.com")
            let otp = try #require(try await emulator.oneTimeCode(email: "code@example.com"))
            let completed = try await Task.detached {
                try rawCall(
                    socketPath,
                    #"{"jsonrpc":"2.0","id":2,"method":"completeSignInLink","params":{"email":"code@example.com","code":"\#(otp)"}}"#)
            }.value
            #expect(completed["result"]?["state"]?["user"]?["email"] == "code@example.com", "\(completed)")
            #expect(completed["result"]?["merge"]?["fromUid"]?.stringValue == signedOut.user?.uid)
            #expect(try await daemon.stop() == 0)
        }
    }
}
