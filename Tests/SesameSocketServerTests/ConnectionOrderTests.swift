import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// Requests of one connection that change the session take effect in the order they were sent,
/// however the scheduler runs the tasks that carry them into the service.
@Suite("One connection's changes, in the order sent, over a real Unix socket", .timeLimit(.minutes(2)))
struct ConnectionOrderTests {
    @Test("20 rounds of 50 pipelined updateProfile calls each end on the last name sent")
    func pipelinedProfileUpdatesKeepTheirOrder() async throws {
        try await SocketHarness.withAnonymousClient { _, client in
            for round in 0..<20 {
                let names = (0..<50).map { "round-\(round)-name-\($0)" }
                let lines = names.enumerated().map { index, name in
                    JSONValue.object([
                        "jsonrpc": "2.0", "id": .integer(Int64(index + 1)), "method": "updateProfile",
                        "params": ["displayName": .string(name)],
                    ]).jsonString
                }
                // One write: every request is on the socket before the first is answered.
                try await client.send(lines.joined(separator: "\n"))
                var answered = Set<Int64>()
                while answered.count < names.count {
                    let message = try await client.receive()
                    guard case .integer(let id) = message["id"] else { continue }
                    #expect(message["result"] != nil, "updateProfile \(id) failed: \(message)")
                    answered.insert(id)
                }
                let state = try await client.call("getState", id: 100)
                #expect(state["result"]?["user"]?["displayName"] == .string(names.last!), "round \(round)")
            }
        }
    }

    @Test("signOut then signIn sent together end signed in; signIn then signOut end signed out")
    func signOutAndSignInKeepTheirOrder() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            _ = await harness.provider.addAccount(email: "ann@example.com", password: "correct horse")
            let signIn = JSONValue.object([
                "jsonrpc": "2.0", "id": 2, "method": "signIn",
                "params": ["identifier": "ann@example.com", "password": "correct horse"],
            ]).jsonString
            let signOut = #"{"jsonrpc":"2.0","id":1,"method":"signOut"}"#
            for round in 0..<10 {
                try await client.send(signOut + "\n" + signIn)
                try await Self.awaitAnswers([1, 2], from: &client)
                let afterSignIn = try await client.call("getState", id: 3)
                #expect(afterSignIn["result"]?["user"]?["email"] == "ann@example.com", "round \(round)")

                let signOutSecond = #"{"jsonrpc":"2.0","id":5,"method":"signOut"}"#
                let signInFirst = signIn.replacingOccurrences(of: #""id":2"#, with: #""id":4"#)
                try await client.send(signInFirst + "\n" + signOutSecond)
                try await Self.awaitAnswers([4, 5], from: &client)
                let afterSignOut = try await client.call("getState", id: 6)
                #expect(afterSignOut["result"]?["user"]?["email"] != "ann@example.com", "round \(round)")
            }
        }
    }

    /// Reads until every id in `ids` was answered (notifications in between are skipped).
    private static func awaitAnswers(_ ids: Set<Int64>, from client: inout LineClient) async throws {
        var waiting = ids
        while !waiting.isEmpty {
            let message = try await client.receive()
            if case .integer(let id) = message["id"] { waiting.remove(id) }
        }
    }
}
