import Foundation
import SesameLocalAPI
import Testing

@testable import SesameClient

/// The README's "Using Sesame from an app" example, run against the fake daemon so it keeps
/// compiling and working.
@Suite("README example")
struct ReadmeExampleTests {
    @Test func theReadmeExampleWorks() async throws {
        let daemon = FakeDaemon()
        try await daemon.start()
        await daemon.script("getIdToken") { _ in
            .result(["token": "eyJ.t", "uid": "guest-1", "expiresAt": "2026-11-21T11:05:00Z"])
        }
        await daemon.script("createAccount") { _ in
            .error(LocalAPIError(code: .authentication, reason: "email-already-in-use", message: "Sign in instead."))
        }
        let merge = WireMerge(mergeId: "m1", fromUid: "guest-1", toUid: "ann", createdAt: Date())
        let signedIn = await daemon.stateJSON
        await daemon.script("signIn") { _ in .result(["state": signedIn, "merge": merge.json]) }
        let (email, password) = ("ann@example.com", "correct horse")
        var lines: [String] = []

        // --- README ---
        let sesame = SesameClient(socketPath: daemon.path)  // nil: $SESAME_SOCKET, the user socket, the system one

        let token = try await sesame.idToken()  // for your backend: "Authorization: Bearer \(token.token)"

        do {
            _ = try await sesame.createAccount(email: email, password: password)  // the guest keeps its uid
        } catch let error as SesameClientError where error.reason == "email-already-in-use" {
            let (_, merge) = try await sesame.signIn(identifier: email, password: password)  // guest data merges
            lines.append("merging \(merge?.fromUid ?? "-")")
        }

        for try await state in sesame.stateChanges {  // the current state first, then every change
            lines.append("\(state.status) \(state.user?.uid ?? "-") \(state.changeReason?.rawValue ?? "")")
            break
        }
        // --- end ---

        #expect(token.token == "eyJ.t")
        #expect(lines == ["merging guest-1", "anonymous guest-1 snapshot"])
        await sesame.close()
        await daemon.stop()
    }
}
