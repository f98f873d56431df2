import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 34, item 3: sign-out scopes over the real socket, with two daemons (two machines)
/// signed in to one account on one emulator.
@Suite("sign-out scopes: two daemons on one emulator", .serialized, .timeLimit(.minutes(3)))
struct SignOutScopeTests {
    @Test(
        "Supabase: daemon A's signOut everywhere ends daemon B's session, which reports session-revoked at its next (forced) refresh, then a fresh guest"
    )
    func everywhereEndsTheOtherDaemon() async throws {
        try await withTwoDaemons { emulator, _, _, clientA, clientB, watchB in
            let uid = try await signInBoth(a: clientA, b: clientB)
            let after = try await clientA.signOut(scope: "everywhere")
            #expect(after.status == .anonymous)
            #expect(after.user?.uid != uid)
            try await expectDaemonError("session-revoked", code: 4000) {
                _ = try await clientB.idToken(forceRefresh: true)
            }
            try await watchB.waitFor("session-revoked")
            let revoked = await watchB.log.states.first { $0.changeReason?.rawValue == "session-revoked" }
            #expect(revoked?.status == .signedOut)
            try await eventually("B has a fresh guest") {
                let state = try await clientB.state()
                return state.status == .anonymous && state.user != nil && state.user?.uid != uid
            }
            // The account itself is untouched, and signs in again.
            #expect(try await emulator.accountExists(uid))
        }
    }

    @Test(
        "Supabase: sesamectl sign-out --others keeps daemon A signed in and ends daemon B's session (session-revoked at its next refresh)"
    )
    func othersKeepsThisDaemon() async throws {
        try await withTwoDaemons { _, a, _, clientA, clientB, watchB in
            let uid = try await signInBoth(a: clientA, b: clientB)
            let result = try await a.ctl(["sign-out", "--others"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stdout.contains("ended the account's other sessions; still signed in as"), "\(result.stdout)")
            #expect(try await clientA.idToken(forceRefresh: true).uid == uid)
            #expect(try await clientA.state().status == .authenticated)
            try await expectDaemonError("session-revoked", code: 4000) {
                _ = try await clientB.idToken(forceRefresh: true)
            }
            try await watchB.waitFor("session-revoked")
            // A is still signed in after B's refusal: only the other sessions ended.
            #expect(try await clientA.idToken(forceRefresh: true).uid == uid)
        }
    }

    @Test(
        "Firebase: signOut others or everywhere is operation-not-allowed naming what to deploy; the session stays; sesamectl says so too"
    )
    func firebaseRefuses() async throws {
        try await withEmulatorAndDaemon(backend: .firebase) { _, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let account = try await client.createAccount(email: "fb-scope@example.com", password: "secret12")
            for scope in ["others", "everywhere"] {
                let error = try await expectDaemonError("operation-not-allowed", code: 1000) {
                    _ = try await client.signOut(scope: scope)
                }
                #expect(error?.message.contains("revokeRefreshTokens") == true, "\(String(describing: error))")
            }
            let state = try await client.state()
            #expect(state.status == .authenticated && state.user?.uid == account.user?.uid)
            let result = try await daemon.ctl(["sign-out", "--everywhere"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("revokeRefreshTokens"), "\(result.stderr)")
            #expect(result.stderr.contains("`sesamectl sign-out`"), "\(result.stderr)")
            #expect(try await client.state().user?.uid == account.user?.uid)
            let help = try await daemon.ctl(["sign-out", "--help"])
            #expect(help.stdout.contains("--others") && help.stdout.contains("--everywhere"), "\(help.stdout)")
        }
    }

    /// A signs up, B signs in to the same account: two sessions of it. Returns its uid.
    private func signInBoth(a: SesameClient, b: SesameClient) async throws -> String {
        let account = try await a.createAccount(email: "two-machines@example.com", password: "secret12")
        let uid = try #require(account.user?.uid)
        let signedIn = try await b.signIn(identifier: "two-machines@example.com", password: "secret12")
        #expect(signedIn.state.user?.uid == uid)
        return uid
    }

    /// One Supabase emulator, two daemons on it, a client for each and a state log of B.
    private func withTwoDaemons(
        _ body: (EmulatorProcess, DaemonProcess, DaemonProcess, SesameClient, SesameClient, StateWatch) async throws
            -> Void
    ) async throws {
        let emulator = try await EmulatorProcess.start(backend: .supabase)
        defer { Task { await emulator.stop() } }
        let a = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await a.cleanUp() } }
        let b = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await b.cleanUp() } }
        let (clientA, clientB) = (a.client(), b.client())
        defer { Task { await clientA.close() } }
        defer { Task { await clientB.close() } }
        let watchB = try await StateWatch.start(clientB)
        defer { watchB.stop() }
        do {
            try await body(emulator, a, b, clientA, clientB, watchB)
        } catch {
            Issue.record("daemon A:\n\(a.log.suffix(2000))\ndaemon B:\n\(b.log.suffix(2000))")
            throw error
        }
    }
}
