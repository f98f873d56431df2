import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameSocketServer

/// Consent over the real socket: a program (socat, an ordinary peer) asks for a role, a manager
/// (this test's own connection, a manager by its executable) sees and answers it.
@Suite("Consent: requestAccess, answered by a manager, remembered")
struct ConsentTests {
    static let testExecutable = try! FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")

    static func request(_ role: String, id: Int = 1) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"requestAccess","params":{"role":"\#(role)","reason":"sync notes"}}"#
    }

    static let hello = #"{"jsonrpc":"2.0","id":9,"method":"hello"}"#

    /// A daemon whose managers are this test's executable and whose other peers have no role.
    static func withDaemon(
        timeout: Double = 120, _ body: (SocketHarness) async throws -> Void
    ) async throws {
        try await AccessBySocketTests.withHarness(managers: ["exe:\(testExecutable)"], ordinaryUid: true) {
            harness async throws in
            try await body(harness)
        } configure: { configuration in
            configuration.accessRequestLimits.timeout = timeout
            configuration.accessGrantsPath = nil
        }
    }

    /// Waits for the subscriber's next `accessRequestsChanged` and returns its requests.
    static func nextRequests(_ client: inout LineClient) async throws -> [SesameAccessRequest] {
        while true {
            let message = try await client.receive()
            if message["method"]?.stringValue == "accessRequestsChanged" {
                return message["params"]?["accessRequests"]?.arrayValue?.compactMap { SesameAccessRequest(json: $0) }
                    ?? []
            }
        }
    }

    /// Answers a request; returns the answer and the open requests the notification before it
    /// listed (the list is published before the answer).
    static func answer(
        _ manager: inout LineClient, id: Int, _ params: JSONValue
    ) async throws -> (answer: JSONValue, open: [SesameAccessRequest]?) {
        var notifications: [JSONValue] = []
        let answer = try await manager.call(
            "answerAccessRequest", id: id, params: params, notifications: &notifications)
        let last = notifications.last { $0["method"]?.stringValue == "accessRequestsChanged" }
        return (answer, last?["params"]?["accessRequests"]?.arrayValue?.compactMap { SesameAccessRequest(json: $0) })
    }

    @Test("seen by a subscribed manager, answered, remembered for the boot, asked again for a replaced executable")
    func rememberedForTheBoot() async throws {
        try await Self.withDaemon { harness async throws in
            let tool = harness.directory + "/tool"
            try FileManager.default.copyItem(atPath: AccessBySocketTests.socat, toPath: tool)
            chmod(tool, 0o755)
            let program = AccessBySocketTests.ordinary(tool)
            try await withClient(harness.path) { manager in
                _ = try await manager.call("subscribe")
                let asking = try await PeerClient.start(program, sending: [Self.request("reader")], to: harness.path)
                defer { asking.stop() }
                let requests = try await Self.nextRequests(&manager)
                #expect(requests.count == 1)
                let request = try #require(requests.first)
                #expect(request.role == "reader")
                #expect(request.executable == tool)
                #expect(request.reason == "sync notes")
                #expect(request.pid > 0)
                let state = try await manager.call("getState", id: 2)
                #expect(state["result"]?["accessRequests"]?.arrayValue?.count == 1)
                let answered = try await Self.answer(
                    &manager, id: 3, ["requestId": .string(request.requestId), "allow": true, "remember": "boot"])
                #expect(answered.answer["result"] != nil)
                #expect(answered.open == [])
                let answer = try #require(try await asking.awaitAnswers().first)
                #expect(answer["result"]?["role"] == "reader")

                // Remembered for the boot: the program's next connection has the role.
                #expect(try await AccessBySocketTests.role(of: program, socket: harness.path) == "reader")

                // A file put in its place is another program: it asks again.
                try FileManager.default.removeItem(atPath: tool)
                try FileManager.default.copyItem(atPath: AccessBySocketTests.socat, toPath: tool)
                chmod(tool, 0o755)
                #expect(try await AccessBySocketTests.role(of: program, socket: harness.path) == "none")
                let again = try await PeerClient.start(program, sending: [Self.request("reader")], to: harness.path)
                defer { again.stop() }
                let asked = try await Self.nextRequests(&manager)
                #expect(asked.count == 1)
                #expect(asked.first?.requestId != request.requestId)

                let grants = try await manager.call("listAccessGrants", id: 4)
                let remembers = grants["result"]?["grants"]?.arrayValue?.compactMap { $0["remember"]?.stringValue }
                #expect(remembers?.contains("boot") == true)
            }
        }
    }

    @Test("denied, or not answered in time, is permission-denied; readers and observers never see requests")
    func deniedAndExpired() async throws {
        try await Self.withDaemon(timeout: 1) { harness async throws in
            let program = AccessBySocketTests.ordinary(AccessBySocketTests.socat)
            try await withClient(harness.path) { manager in
                _ = try await manager.call("subscribe")
                let denied = try await PeerClient.start(program, sending: [Self.request("manager")], to: harness.path)
                defer { denied.stop() }
                let request = try #require(try await Self.nextRequests(&manager).first)
                let answered = try await Self.answer(
                    &manager, id: 2, ["requestId": .string(request.requestId), "allow": false])
                #expect(answered.open == [])
                let refusal = try #require(try await denied.awaitAnswers().first)
                #expect(refusal["error"]?["code"] == 3000)
                #expect(refusal["error"]?["data"]?["reason"] == "permission-denied")

                let unanswered = try await PeerClient.start(
                    program, sending: [Self.request("reader")], to: harness.path)
                defer { unanswered.stop() }
                #expect(try await Self.nextRequests(&manager).count == 1)
                let expired = try #require(try await unanswered.awaitAnswers().first)
                #expect(expired["error"]?["data"]?["reason"] == "permission-denied")
                #expect(try await Self.nextRequests(&manager).isEmpty)
            }
        }
    }

    @Test("one open request per program; a second is operation-in-progress")
    func oneOpenPerProgram() async throws {
        try await Self.withDaemon { harness async throws in
            let program = AccessBySocketTests.ordinary(AccessBySocketTests.socat)
            try await withClient(harness.path) { manager in
                _ = try await manager.call("subscribe")
                let first = try await PeerClient.start(program, sending: [Self.request("reader")], to: harness.path)
                defer { first.stop() }
                _ = try await Self.nextRequests(&manager)
                let second = try await PeerClient.call(program, Self.request("reader"), socket: harness.path)
                #expect(second?["error"]?["data"]?["reason"] == "operation-in-progress")
            }
        }
    }

    @Test("a grant for the connection applies at once and is listed; revoking it removes it")
    func revoke() async throws {
        try await Self.withDaemon { harness async throws in
            let program = AccessBySocketTests.ordinary(AccessBySocketTests.socat)
            try await withClient(harness.path) { manager in
                _ = try await manager.call("subscribe")
                let asking = try await PeerClient.start(
                    program, sending: [Self.request("observer")], to: harness.path)
                defer { asking.stop() }
                let request = try #require(try await Self.nextRequests(&manager).first)
                _ = try await Self.answer(&manager, id: 2, ["requestId": .string(request.requestId), "allow": true])
                #expect(try #require(try await asking.awaitAnswers().first)["result"]?["role"] == "observer")
                let grants = try await manager.call("listAccessGrants", id: 3)
                let grant = try #require(grants["result"]?["grants"]?.arrayValue?.first)
                #expect(grant["remember"] == "connection")
                #expect(grant["pid"]?.int64Value == Int64(request.pid))
                let revoked = try await manager.call(
                    "revokeAccessGrant", id: 4, params: ["grantId": grant["grantId"] ?? .null])
                #expect(revoked["result"] != nil)
                let after = try await manager.call("listAccessGrants", id: 5)
                #expect(after["result"]?["grants"]?.arrayValue?.isEmpty == true)
                // Remembered for nothing: another connection of the program has no role.
                #expect(try await AccessBySocketTests.role(of: program, socket: harness.path) == "none")
            }
        }
    }

    @Test("revoking a grant lowers the role of the connection it was given to at once: its next call is refused")
    func revokeLowersAnOpenConnection() async throws {
        try await Self.withDaemon { harness async throws in
            let program = AccessBySocketTests.ordinary(AccessBySocketTests.socat)
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            let asking = try await PeerClient.start(program, input: ends[0], to: harness.path)
            close(ends[0])
            let input = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            defer { asking.stop() }
            func send(_ line: String) throws { try input.write(contentsOf: Data((line + "\n").utf8)) }
            /// The program's `count`-th answer (from 1).
            func answer(_ count: Int) async throws -> JSONValue {
                let answers = try await asking.awaitAnswers(count)
                return try #require(answers.count >= count ? answers[count - 1] : nil)
            }
            try await withClient(harness.path) { manager in
                _ = try await manager.call("subscribe")
                try send(Self.request("observer"))
                let request = try #require(try await Self.nextRequests(&manager).first)
                _ = try await Self.answer(&manager, id: 2, ["requestId": .string(request.requestId), "allow": true])
                #expect(try await answer(1)["result"]?["role"] == "observer")
                try send(#"{"jsonrpc":"2.0","id":2,"method":"getState"}"#)
                #expect(try await answer(2)["result"]?["status"] != nil)

                let grants = try await manager.call("listAccessGrants", id: 3)
                let grant = try #require(grants["result"]?["grants"]?.arrayValue?.first)
                _ = try await manager.call("revokeAccessGrant", id: 4, params: ["grantId": grant["grantId"] ?? .null])
                try send(#"{"jsonrpc":"2.0","id":3,"method":"getState"}"#)
                let refused = try await answer(3)
                #expect(refused["result"] == nil)
                #expect(refused["error"]?["data"]?["reason"] == "permission-denied")
            }
        }
    }
}
