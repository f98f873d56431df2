import NIOCore
import NIOEmbedded
import SesameLocalAPI
import SesameService
import SesameTesting
import Testing

@testable import SesameSocketServer

/// What a client can make one connection hold: requests in flight, answers it does not read,
/// notifications it does not read, and an idle slot.
extension ConnectionHandlerEmbeddedTests {
    static func forcedToken(_ id: Int) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"getIdToken","params":{"forceRefresh":true}}"#
    }

    static func helloOrState(_ id: Int) -> [UInt8] {
        let method = id % 2 == 0 ? "hello" : "getState"
        return Array((#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"# + "\n").utf8)
    }

    @Test("with 64 requests in flight the connection stops reading; the line after them waits until one is answered")
    func inFlightCap() async throws {
        try await EmbeddedConnection.with { harness, connection in
            harness.service.holdCalls()
            let limit = ProtocolLimits.maximumRequestsInFlight
            var read = ""
            for id in 1...limit { read += Self.forcedToken(id) + "\n" }
            read += Self.getState(limit + 1) + "\n"
            try await connection.send(read)
            #expect(!connection.readsAutomatically)
            try await eventually("a call is held") { harness.service.heldCalls > 0 }
            // Not even the getState, answered on the event loop, is handled past the cap.
            #expect(try await connection.writtenLines().isEmpty)

            harness.service.releaseCalls()
            var ids: [JSONValue] = []
            for _ in 0...limit { ids.append(try await connection.next()["id"] ?? .null) }
            #expect(Set(ids) == Set((1...limit + 1).map { JSONValue.integer(Int64($0)) }))
            #expect(ids.first != .integer(Int64(limit + 1)))
            #expect(connection.readsAutomatically)
        }
    }

    @Test("the answers of one read are handed to the channel 16 KiB at a time")
    func answersInSlicesOf16KiB() async throws {
        try await EmbeddedConnection.with { _, connection in
            try await connection.send(bytes: (1...1000).flatMap(Self.helloOrState))
            let sizes = try await connection.writes().map(\.readableBytes)
            let bound = ConnectionHandler.maximumQueuedAnswerBytes
            #expect(sizes.count > 1)
            // Each slice but the last passed the bound with its last answer, by less than one answer.
            #expect(sizes.dropLast().allSatisfy { $0 >= bound && $0 < bound + 512 })
            #expect(sizes.reduce(0, +) > 1000 * 100)
        }
    }

    @Test(
        "a client that reads no answers is paused with at most about twice 16 KiB waiting; as it reads, every answer comes, in order"
    )
    func unreadAnswersPauseTheConnection() async throws {
        try await EmbeddedConnection.with(stalled: true) { _, connection in
            let total = 2000
            try await connection.send(bytes: (0..<total).flatMap(Self.helloOrState))
            #expect(!connection.readsAutomatically)
            var answered = 0
            var reads = 0
            while answered < total, reads < total {
                try await connection.peerReads()
                reads += 1
                for line in try await connection.writtenLines() {
                    let answer = try JSONValue.parse(line)
                    #expect(answer["id"] == .integer(Int64(answered)))
                    #expect(answer["result"] != nil)
                    answered += 1
                }
            }
            #expect(answered == total)
            #expect(reads > 10)
            let socket = try #require(connection.socket)
            #expect(socket.most <= 2 * ConnectionHandler.maximumQueuedAnswerBytes + 16_384)
            #expect(connection.readsAutomatically)
        }
    }

    @Test("a subscriber whose notifications wait unwritten past 1 MiB is disconnected; one that reads carries on")
    func slowSubscriber() async throws {
        try await EmbeddedConnection.with(stalled: true) { harness, slow in
            let reader = try await EmbeddedConnection(server: harness.server)
            let subscribe = #"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"events":["idTokenChanged"]}}"#
            try await slow.send(subscribe + "\n")
            try await reader.send(subscribe + "\n")
            #expect(try await reader.next()["result"]?["subscription"] != nil)
            var refreshes = 0
            while slow.channel.isActive, refreshes < 20_000 {
                harness.service.refresh()
                refreshes += 1
            }
            #expect(!slow.channel.isActive)
            #expect(try #require(slow.socket).most > ProtocolLimits.maximumUnreadNotificationBytes)
            // The reader got the notifications of every refresh, and is still served.
            var notifications = 0
            try await eventually("the reader has every notification") {
                for line in try await reader.writtenLines() where line.contains("idTokenChanged") { notifications += 1 }
                return notifications >= refreshes
            }
            try await reader.send(Self.getState(2) + "\n")
            #expect(try await reader.next()["id"] == 2)
        }
    }

    @Test("a connection that read nothing for four idle ticks is closed; a read starts the count again")
    func idleTicks() async throws {
        try await EmbeddedConnection.with { _, connection in
            for id in 1...2 {
                for _ in 1..<IdleTick.ticksToClose { try await connection.idleTick() }
                #expect(connection.channel.isActive)
                try await connection.send(Self.getState(id) + "\n")
                #expect(try await connection.next()["id"] == .integer(Int64(id)))
            }
            for _ in 1...IdleTick.ticksToClose { try await connection.idleTick() }
            #expect(!connection.channel.isActive)
        }
    }

    @Test("a subscriber, and a connection with a request in flight, stay open however long they are idle")
    func idleButBusy() async throws {
        try await EmbeddedConnection.with { harness, subscriber in
            try await subscriber.send(#"{"jsonrpc":"2.0","id":1,"method":"subscribe"}"# + "\n")
            #expect(try await subscriber.next()["id"] == 1)
            let waiting = try await EmbeddedConnection(server: harness.server)
            harness.service.holdCalls()
            try await waiting.send(Self.forcedToken(1) + "\n")
            try await eventually("the call is held") { harness.service.heldCalls > 0 }
            for _ in 1...(3 * IdleTick.ticksToClose) {
                try await subscriber.idleTick()
                try await waiting.idleTick()
            }
            #expect(subscriber.channel.isActive)
            #expect(waiting.channel.isActive)
            harness.service.releaseCalls()
            #expect(try await waiting.next()["result"]?["token"] != nil)
            // Answered, it has been idle long enough: the next tick closes it.
            try await waiting.idleTick()
            #expect(!waiting.channel.isActive)
            #expect(subscriber.channel.isActive)
        }
    }
}
