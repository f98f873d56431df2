import Foundation
import NIOCore
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameSocketServer

/// Every request counts against one bound per connection, however it is answered: a client
/// that sends and never reads is paused with a bounded amount of answers, and only
/// notifications count against a subscriber's limit.
@Suite("One bound per connection", .timeLimit(.minutes(2)))
struct ConnectionBoundTests {
    static func line(_ id: Int) -> [UInt8] {
        let method = id % 2 == 0 ? "hello" : "getState"
        return Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"#.utf8) + [UInt8(ascii: "\n")]
    }

    @Test(
        "a client pipelining hello and getState that never reads is paused with bounded answers; another is answered at once; later it gets every answer"
    )
    func nonReadingClient() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        try await harness.awaitAnonymous()
        let client = try RawConnection(path: harness.path)
        client.setBlocking(false)
        // Lines go 50 to a write (the kernel counts a small write as much more than its bytes).
        func batch(from first: Int) -> [UInt8] { (first..<first + 50).flatMap { Self.line($0) } }
        var sent = 0
        var pending = batch(from: 0)[...]
        var paused: LocalAPIServer.ConnectionState?
        while paused == nil {
            let written = client.writeSome(Array(pending))
            pending = pending.dropFirst(written)
            if pending.isEmpty {
                sent += 50
                pending = batch(from: sent)[...]
            } else if written == 0 {
                // The socket takes no more: has the daemon stopped reading this connection?
                paused = try await harness.server.connectionStates().first { !$0.reading }
                if paused == nil { try await Task.sleep(for: .milliseconds(5)) }
            }
        }
        // Before the bound, a connection's unwritten answers grew past 1 MiB (and 1,000 such
        // connections took the daemon to 2 GB).
        let bound = 2 * ConnectionHandler.maximumQueuedAnswerBytes + 16_384
        #expect(paused!.unwritten <= bound, "\(paused!.unwritten) bytes unwritten after \(sent) requests")
        #expect(sent >= 1000)
        // Another client is answered while the first is still paused: its answer does not wait
        // for the first connection's queue (no duration is asserted; the first never reads).
        try await withClient(harness.path) { other in
            let answer = try await other.call("hello")
            #expect(answer["result"]?["role"] == "manager")
        }
        let stillPaused = try await harness.server.connectionStates().contains { !$0.reading }
        #expect(stillPaused)
        // Now it reads: every complete request is answered, in order (the line it was
        // writing waits for its end).
        client.setBlocking(true)
        let expected = sent + pending.startIndex / Self.line(0).count
        var lines = 0
        var partial: [UInt8] = []
        while lines < expected {
            let bytes = try client.readSome()
            #expect(!bytes.isEmpty)
            if bytes.isEmpty { break }
            partial += bytes
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = try JSONValue.parse(Array(partial[..<newline]))
                #expect(answer["id"] == .integer(Int64(lines)))
                #expect(answer["result"] != nil)
                lines += 1
                partial.removeSubrange(...newline)
            }
        }
        #expect(lines == expected)
    }

    @Test("a subscriber reading promptly is not disconnected by its own burst of 20,000 answers")
    func subscriberBurst() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            _ = try await client.call("subscribe", id: 0)
            var batch: [UInt8] = []
            for id in 1...20_000 { batch += Self.line(id) }
            let outbound = client.outbound
            let writer = Task { try await outbound.write(ByteBuffer(bytes: batch)) }
            var answered = 0
            while answered < 20_000 {
                let message = try await client.receive()
                if message["id"] != nil { answered += 1 }
            }
            try await writer.value
            #expect(harness.server.openConnections == 1)
            #expect(try await client.call("getState", id: 20_001)["result"]?["status"] == "anonymous")
        }
    }
}
