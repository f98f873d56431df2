import Foundation
import NIOConcurrencyHelpers
import SesameCore
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameSocketServer

/// Who sees a sign-in flow's secrets, over the real socket (issue 31, items 1 and 6a): a
/// browser flow's URL and `state` reach only the connection that started it, in its answer; a
/// device flow's code reaches managers only, while readers and observers see that a flow is open.
@Suite("sign-in flows over the socket: who sees a flow's secrets", .serialized, .timeLimit(.minutes(1)))
struct SignInFlowVisibilityTests {
    /// The roles of the connections, in the order they connect: the one that starts the flow,
    /// another manager, a reader, an observer.
    static let roles: [LocalAPIRole] = [.manager, .manager, .reader, .observer]

    /// A harness whose connections get ``roles`` in turn, with a device-flow provider.
    static func start() async throws -> SocketHarness {
        let next = NIOLockedValueBox(0)
        let harness = try await SocketHarness.start(
            deviceFlows: true,
            server: { configuration in
                configuration.roleOfPeer = { _ in
                    next.withLockedValue { count in
                        defer { count += 1 }
                        return roles[min(count, roles.count - 1)]
                    }
                }
            })
        try await harness.awaitAnonymous()
        return harness
    }

    /// Connects the four clients in ``roles``' order (each says hello before the next connects),
    /// subscribes each, and runs `body` with them.
    static func withClients(
        _ harness: SocketHarness, _ body: (inout [LineClient]) async throws -> Void
    ) async throws {
        func connect(_ clients: [LineClient]) async throws {
            guard clients.count < roles.count else {
                var all = clients
                try await body(&all)
                return
            }
            try await withClient(harness.path) { client in
                let hello = try await client.call("hello")
                #expect(hello["result"]?["role"]?.stringValue == roles[clients.count].rawValue)
                let subscribed = try await client.call("subscribe", id: 2)
                #expect(subscribed["result"]?["subscription"] != nil)
                try await connect(clients + [client])
            }
        }
        try await connect([])
    }

    /// Sends `method` and returns every line up to and including its answer, as sent.
    static func exchange(
        _ client: inout LineClient, _ method: String, id: Int, params: JSONValue? = nil
    ) async throws -> (lines: [String], answer: JSONValue) {
        var request: [String: JSONValue] = ["jsonrpc": "2.0", "id": .integer(Int64(id)), "method": .string(method)]
        if let params { request["params"] = params }
        try await client.send(JSONValue.object(request).jsonString)
        var lines: [String] = []
        while true {
            let line = try await client.receiveLine()
            lines.append(line)
            let message = try JSONValue.parse(Array(line.utf8))
            if message["id"] == .integer(Int64(id)) { return (lines, message) }
        }
    }

    /// The lines a client received up to the answer of a `getState` (its notifications first).
    static func linesThroughGetState(_ client: inout LineClient, id: Int) async throws -> [String] {
        try await exchange(&client, "getState", id: id).lines
    }

    @Test(
        "a browser flow's URL and state: only in startSignIn's answer; no connection sees them in signInFlowChanged, State or getState"
    )
    func browserFlowSecretsStayInTheAnswer() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        try await Self.withClients(harness) { clients in
            let (startLines, answer) = try await Self.exchange(
                &clients[0], "startSignIn", id: 10,
                params: [
                    "providerId": "google.com", "flow": "browser", "redirectUri": "http://127.0.0.1:4711/callback",
                ])
            let start = try #require(await harness.provider.lastBrowserStart)
            let result = try #require(answer["result"])
            #expect(result["authorizationUrl"]?.stringValue == start.authorizationUrl)
            #expect(result["state"]?.stringValue == start.state)
            let secrets = [start.authorizationUrl, start.state, "idp.fake.invalid", "127.0.0.1:4711"]
            // The starter's own notification (before its answer) carries neither.
            let notifications = startLines.dropLast()
            #expect(notifications.contains { $0.contains("signInFlowChanged") })
            for line in notifications { #expect(!secrets.contains { line.contains($0) }, "\(line)") }
            for index in clients.indices {
                let lines = try await Self.linesThroughGetState(&clients[index], id: 20)
                if index > 0 { #expect(lines.contains { $0.contains("signInFlowChanged") }, "connection \(index)") }
                for line in lines { #expect(!secrets.contains { line.contains($0) }, "\(Self.roles[index]): \(line)") }
                let state = try JSONValue.parse(Array(try #require(lines.last).utf8))
                #expect(state["result"]?["signInPrompt"]?["flow"]?.stringValue == "browser")
                // A subscription made now starts from a state without them too.
                let (subscribed, _) = try await Self.exchange(&clients[index], "subscribe", id: 21)
                for line in subscribed { #expect(!secrets.contains { line.contains($0) }, "\(line)") }
            }
        }
    }

    @Test(
        "a device flow's code: managers see it (the starter in its answer too); a reader and an observer see an open flow without it"
    )
    func deviceCodeForManagersOnly() async throws {
        let harness = try await Self.start()
        defer { Task { await harness.stop() } }
        try await Self.withClients(harness) { clients in
            let (startLines, answer) = try await Self.exchange(
                &clients[0], "startSignIn", id: 10, params: ["providerId": "google.com", "flow": "device"])
            let code = try #require(answer["result"]?["userCode"]?.stringValue)
            #expect(answer["result"]?["verificationUriComplete"]?.stringValue?.contains(code) == true)
            let flowId = try #require(answer["result"]?["flowId"]?.stringValue)
            for index in clients.indices {
                let later = try await Self.linesThroughGetState(&clients[index], id: 20)
                let lines = (index == 0 ? Array(startLines.dropLast()) : []) + later
                let messages = try lines.map { try JSONValue.parse(Array($0.utf8)) }
                let changed = try #require(messages.first { $0["method"]?.stringValue == "signInFlowChanged" })
                let flow = try #require(changed["params"]?["flow"])
                let prompts = [
                    changed["params"]?["state"]?["signInPrompt"], messages.last?["result"]?["signInPrompt"],
                ]
                #expect(flow["flowId"]?.stringValue == flowId && flow["status"]?.stringValue == "pending")
                for prompt in prompts {
                    #expect(prompt?["flowId"]?.stringValue == flowId, "the flow is open for every role")
                    #expect(prompt?["verificationUri"]?.stringValue == "https://idp.fake.invalid/device")
                }
                if Self.roles[index] == .manager {
                    #expect(flow["userCode"]?.stringValue == code)
                    for prompt in prompts { #expect(prompt?["userCode"]?.stringValue == code) }
                } else {
                    #expect(flow["userCode"] == .null && flow["verificationUriComplete"] == .null)
                    for prompt in prompts {
                        #expect(prompt?["userCode"] == .null && prompt?["verificationUriComplete"] == .null)
                    }
                    for line in lines { #expect(!line.contains(code), "\(Self.roles[index]): \(line)") }
                    let (subscribed, _) = try await Self.exchange(&clients[index], "subscribe", id: 21)
                    for line in subscribed { #expect(!line.contains(code), "\(line)") }
                }
            }
        }
    }
}
