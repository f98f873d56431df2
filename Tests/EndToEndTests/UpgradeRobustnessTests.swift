import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The upgrade paths (issue 5) under concurrency and faults: flows one at a time, lost answers
/// never retried or half applied, events ordered before responses, and signed-out starts.
@Suite("upgrade paths end to end: concurrency, lost answers and order", .serialized, .timeLimit(.minutes(3)))
struct UpgradeRobustnessTests {
    @Test("two flows at once from two clients run one after the other; no guest is lost")
    func concurrentFlows() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            _ = try await emulator.createAccount(email: "old@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            let other = daemon.client()
            defer { Task { await other.close() } }
            async let created: Result<SesameState, any Error> = {
                do {
                    return .success(try await client.createAccount(email: "new@example.com", password: "secret12"))
                } catch { return .failure(error) }
            }()
            async let signedIn: Result<(state: SesameState, merge: SesameMerge?), any Error> = {
                do {
                    return .success(try await other.signIn(identifier: "old@example.com", password: "secret12"))
                } catch { return .failure(error) }
            }()
            let (a, b) = await (created, signedIn)
            let signIn = try b.get()
            switch a {
            case .success(let linked):
                // createAccount first: the guest became new@…, then the sign-in replaced it.
                #expect(linked.user?.uid == guest)
                #expect(signIn.merge == nil)
            case .failure(let error):
                // signIn first: a merge; then createAccount found an account signed in.
                #expect((error as? SesameClientError)?.daemonError?.reason == "already-signed-in")
                #expect(signIn.merge?.fromUid == guest)
                #expect(try await emulator.accountExists(guest))
            }
            #expect(try await client.state().user?.email == "old@example.com")
        }
    }

    @Test("a link whose answer is lost (timeout): not retried; the guest is unchanged until reload shows the link")
    func linkTimeoutIsNotRetried() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            _ = try await client.sendSignInLink(email: "tim@example.com")
            let link = try #require(try await emulator.oobLink(email: "tim@example.com"))
            // The daemon gives up after 10 s; the emulator handles the call after 10.5 s.
            try await emulator.faults([
                "latencyMs": 10500, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink",
            ])
            try await expectDaemonError("network-request-failed", code: 2000) {
                _ = try await client.completeSignInLink(link: link)
            }
            let calls = try await emulator.calls()["accounts:signInWithEmailLink"] ?? 0
            #expect(calls == 1, "the link was sent \(calls) times")
            try await emulator.clearFaults()
            let state = try await client.state()
            #expect(state.user?.uid == guest)
            #expect(state.user?.isAnonymous == true)
            try await eventually("the backend linked the guest after all") {
                try await emulator.account(guest)?["email"]?.stringValue == "tim@example.com"
            }
            let reloaded = try await client.reload()
            #expect(reloaded.user?.uid == guest)
            #expect(reloaded.user?.isAnonymous == false)
            #expect(reloaded.user?.email == "tim@example.com")
            try await watch.waitFor("linked")
        }
    }

    @Test("signed out (anonymous first off): link, IdP and createAccount sign up; signIn signs in; no merges")
    func fromSignedOut() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(
            emulator: emulator, settings: ["session": ["anonymous_first": "false"]], waitFor: "signedOut")
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let watch = try await StateWatch.start(client)
        defer { watch.stop() }

        _ = try await client.sendSignInLink(email: "so@example.com")
        let link = try #require(try await emulator.oobLink(email: "so@example.com"))
        let (linked, merge) = try await client.completeSignInLink(link: link)
        #expect(merge == nil)
        #expect(linked.status == .authenticated)
        #expect(linked.user?.email == "so@example.com")
        try await watch.waitFor("signed-up")
        _ = try await client.signOut()
        #expect(try await client.state().status == .signedOut)

        let (idp, idpMerge) = try await client.signInWithIdp(
            providerId: "google.com", idToken: claims(sub: "g-so", email: nil, verified: false))
        #expect(idpMerge == nil)
        #expect(idp.user?.providers == ["google.com"])
        _ = try await client.signOut()

        let created = try await client.createAccount(email: "so2@example.com", password: "secret12")
        #expect(created.user?.email == "so2@example.com")
        _ = try await client.signOut()
        let (signedIn, none) = try await client.signIn(identifier: "so2@example.com", password: "secret12")
        #expect(none == nil)
        #expect(signedIn.user?.email == "so2@example.com")
        #expect(signedIn.pendingMerges.isEmpty)
        try await watch.waitFor("signed-in")
        #expect(try await client.state().status == .authenticated)
    }

    @Test("a link whose answer was lost, then a reset: the account the backend linked is kept, not deleted as a guest")
    func resetAfterLostLinkKeepsTheAccount() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            _ = try await client.sendSignInLink(email: "lost@example.com")
            let link = try #require(try await emulator.oobLink(email: "lost@example.com"))
            try await emulator.faults([
                "latencyMs": 10500, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink",
            ])
            try await expectDaemonError("network-request-failed", code: 2000) {
                _ = try await client.completeSignInLink(link: link)
            }
            try await emulator.clearFaults()
            try await eventually("the backend linked the guest after all") {
                try await emulator.account(guest)?["email"]?.stringValue == "lost@example.com"
            }
            // The daemon still believes it holds a guest; the person resets it.
            #expect(try await client.state().user?.isAnonymous == true)
            let reset = try await client.signOut(reset: true)
            #expect(reset.user?.uid != guest)
            try await eventually("the daemon decided about the old guest") {
                daemon.log.contains("no longer anonymous at the backend")
            }
            #expect(try await emulator.accountExists(guest))
        }
    }

    @Test(
        "on one connection, merged (and with hold 0 the merge's userUpdated) come before the signIn response, in sequence"
    )
    func eventsBeforeResponse() async throws {
        try await withDaemon(settings: ["merge": ["hold": "0"]]) { emulator, daemon, client, watch in
            _ = try await emulator.createAccount(email: "ord@example.com", password: "secret12")
            let connection = try RawConnection(path: daemon.socketPath)
            defer { connection.close() }
            try connection.send(#"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"migrator":true}}"#)
            let subscribed = try await onOwnThread { try connection.readUntilResponse(id: 1) }
            let start = try #require(subscribed.last?["result"]?["state"]?["sequence"]?.int64Value)
            try connection.send(
                #"{"jsonrpc":"2.0","id":2,"method":"signIn","params":{"identifier":"ord@example.com","password":"secret12"}}"#
            )
            let lines = try await onOwnThread { try connection.readUntilResponse(id: 2) }
            let response = try #require(lines.last)
            let notifications = lines.dropLast()
            let methods = notifications.compactMap { $0["method"]?.stringValue }
            let merged = try #require(notifications.firstIndex { $0["params"]?["reason"]?.stringValue == "merged" })
            #expect(methods.contains("accountMerge"))
            #expect(
                notifications[(merged + 1)...].contains { $0["method"]?.stringValue == "userUpdated" }, "\(methods)")
            let sequences = notifications.compactMap { $0["params"]?["sequence"]?.int64Value }
            #expect(sequences.first.map { $0 > start } == true)
            #expect(sequences == sequences.sorted())
            let final = try #require(response["result"]?["state"])
            #expect(final["sequence"]?.int64Value == sequences.last)
            #expect(final["pendingMerges"]?.arrayValue?.isEmpty == true)
            #expect(response["result"]?["merge"]?["mergeId"]?.stringValue != nil)
        }
    }

    @Test("the backend failing in the middle of a sign-in: either the old session or the new one, never half")
    func backendFailsMidFlow() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "mid@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            try await emulator.faults([
                "failNext": 1, "failStatus": 503,
                "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
            ])
            try await expectDaemonError("backend-unavailable", code: 2000) {
                _ = try await client.signIn(identifier: "mid@example.com", password: "secret12")
            }
            var state = try await client.state()
            #expect(state.user?.uid == guest)
            #expect(state.pendingMerges.isEmpty)
            try await emulator.clearFaults()

            // The sign-in succeeds but reading the profile fails: the new session, with its merge.
            try await emulator.faults([
                "failNext": 1, "failStatus": 503, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:lookup",
            ])
            let (after, merge) = try await client.signIn(identifier: "mid@example.com", password: "secret12")
            #expect(after.user?.uid == account)
            #expect(merge?.fromUid == guest)
            try await emulator.clearFaults()
            state = try await client.state()
            #expect(state.user?.uid == account)
            #expect(state.pendingMerges.count == 1)
            #expect(try await emulator.accountExists(guest))
            // A reload fills in the profile.
            let reloaded = try await client.reload()
            #expect(reloaded.user?.email == "mid@example.com")
            #expect(reloaded.user?.providers == ["password"])
        }
    }
}
