import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Passwordless and federated sign-in from a guest on each backend (issue 9, item 6). Where the
/// backends differ by design (docs/providers.md), each one's documented behaviour is asserted.
@Suite("flows: email links, codes and identity providers", .serialized, .timeLimit(.minutes(3)))
struct LinkFlowTests {
    /// Completes a sign-in with a one-time code over the wire (the client library takes links).
    func completeWithCode(_ daemon: DaemonProcess, email: String, code: String) async throws -> JSONValue {
        let path = daemon.socketPath
        let line = JSONValue.object([
            "jsonrpc": "2.0", "id": 7, "method": "completeSignInLink",
            "params": ["email": .string(email), "code": .string(code)],
        ]).jsonString
        return try await onOwnThread { try rawCall(path, line) }
    }

    @Test(
        "email link to a new address from a guest: Firebase links in place, Supabase merges the guest into the address's account",
        arguments: TestBackend.allCases)
    func emailLink(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            #expect(try await client.sendSignInLink(email: "cat@example.com") == "cat@example.com")
            let link = try #require(try await emulator.signInLink(email: "cat@example.com"))
            let (state, merge) = try await client.completeSignInLink(link: link)
            #expect(state.status == .authenticated && state.user?.isAnonymous == false)
            #expect(state.user?.email == "cat@example.com")
            let uid = try #require(state.user?.uid)
            switch backend {
            case .firebase:
                #expect(merge == nil && uid == guest)
                try await watch.waitFor("linked")
            case .supabase:
                // GoTrue cannot attach an address to a guest by link: the address's account
                // signs in and the guest is merged into it, kept until the merge completes.
                #expect(merge?.fromUid == guest && merge?.toUid == uid && uid != guest)
                try await watch.waitFor("merged")
                #expect(try await emulator.accountExists(guest))
            }
            #expect(try await emulator.accountInfo(uid)?.email == "cat@example.com")
            #expect(try await client.idToken(forceRefresh: true).uid == uid)
        }
    }

    @Test(
        "a one-time code from the email: Supabase signs in and merges the guest; Firebase has no codes (operation-not-allowed)",
        arguments: TestBackend.allCases)
    func oneTimeCode(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            _ = try await client.sendSignInLink(email: "code@example.com")
            guard backend == .supabase else {
                let answer = try await completeWithCode(daemon, email: "code@example.com", code: "123456")
                #expect(answer["error"]?["code"] == 1000)
                #expect(answer["error"]?["data"]?["reason"] == "operation-not-allowed")
                #expect(try await client.state().user?.uid == guest)
                return
            }
            let code = try #require(try await emulator.oneTimeCode(email: "code@example.com"))
            let answer = try await completeWithCode(daemon, email: "code@example.com", code: code)
            #expect(answer["result"]?["state"]?["user"]?["email"] == "code@example.com", "\(answer)")
            #expect(answer["result"]?["merge"]?["fromUid"]?.stringValue == guest)
            try await watch.waitFor("merged")
            // A code is single use: the account stays signed in, nothing else changes.
            let reused = try await completeWithCode(daemon, email: "code@example.com", code: code)
            #expect(reused["error"] != nil, "\(reused)")
            #expect(try await client.state().user?.email == "code@example.com")
        }
    }

    @Test(
        "signInWithIdp from a guest, new identity: linked in place with the IdP's email",
        arguments: TestBackend.allCases)
    func idpLinks(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            let (state, merge) = try await client.signInWithIdp(
                providerId: "google.com",
                idToken: emulator.federatedIdToken(sub: "g-1", email: "gil@example.com", verified: true))
            #expect(merge == nil)
            #expect(state.user?.uid == guest)
            #expect(state.user?.isAnonymous == false)
            #expect(state.user?.providers == ["google.com"])
            #expect(state.user?.email == "gil@example.com")
            try await watch.waitFor("linked")
            #expect(try await emulator.accountInfo(guest)?.providers == ["google.com"])
            #expect(try await emulator.accountInfo(guest)?.isAnonymous == false)
        }
    }

    @Test(
        "signInWithIdp from a guest, identity of an existing account: merged; the guest kept until the merge completes",
        arguments: TestBackend.allCases)
    func idpMerges(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            // The identity first belongs to an account made elsewhere.
            let account = try await emulator.createFederatedAccount(
                sub: "g-2", email: "hal@example.com", verified: true)
            let guest = try #require(try await client.state().user?.uid)
            let (state, merge) = try await client.signInWithIdp(
                providerId: "google.com",
                idToken: emulator.federatedIdToken(sub: "g-2", email: "hal@example.com", verified: true))
            let recorded = try #require(merge)
            #expect(recorded.fromUid == guest)
            #expect(recorded.toUid == account)
            #expect(state.user?.uid == account)
            #expect(state.user?.providers == ["google.com"])
            try await watch.waitFor("merged")
            #expect(try await emulator.accountExists(guest))
        }
    }
}
