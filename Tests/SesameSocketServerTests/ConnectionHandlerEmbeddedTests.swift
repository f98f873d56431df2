import NIOCore
import NIOEmbedded
import SesameLocalAPI
import Testing

@testable import SesameSocketServer

/// The connection handler on an embedded channel: how it splits reads into lines (in place,
/// without a copy of a complete line), answers a line it decoded before with another id (the
/// request memo), refuses a line over the limit, and bounds what a client makes it hold
/// (ConnectionHandlerEmbeddedTests+Bounds). Each read is exactly the one the test makes.
@Suite("ConnectionHandler on an embedded channel", .timeLimit(.minutes(1)))
struct ConnectionHandlerEmbeddedTests {
    static func getState(_ id: Int) -> String { #"{"jsonrpc":"2.0","id":\#(id),"method":"getState"}"# }

    @Test("a request fed one byte per read is answered once, when its newline comes")
    func oneBytePerRead() async throws {
        try await EmbeddedConnection.with { _, connection in
            let bytes = Array((Self.getState(7) + "\n").utf8)
            for byte in bytes.dropLast() {
                try await connection.send(bytes: [byte])
                #expect(try await connection.writtenLines().isEmpty)
            }
            try await connection.send(bytes: [bytes.last!])
            let answers = try await connection.writtenLines().map { try JSONValue.parse($0) }
            #expect(answers.count == 1)
            #expect(answers.first?["id"] == 7)
            #expect(answers.first?["result"]?["status"] == "anonymous")
        }
    }

    @Test(
        "many lines in one read, blank lines and CRLF among them, are answered in order; a line's end in the next read completes it"
    )
    func manyLinesPerRead() async throws {
        try await EmbeddedConnection.with { _, connection in
            var read = ""
            for id in 1...200 { read += Self.getState(id) + (id % 3 == 0 ? "\r\n\n" : "\n") }
            read += Self.getState(201)
            try await connection.send(read)
            var ids = try await connection.writtenLines().map { try JSONValue.parse($0)["id"] }
            // The line ending in "\r" is still one request: white space around a value is JSON's.
            #expect(ids == (1...200).map { JSONValue.integer(Int64($0)) })
            try await connection.send("\n" + Self.getState(202) + "\n")
            ids = try await connection.writtenLines().map { try JSONValue.parse($0)["id"] }
            #expect(ids == [201, 202])
        }
    }

    @Test("a line past 65,536 bytes is refused with request-too-large before its end comes, and the connection closed")
    func lineOverTheLimit() async throws {
        try await EmbeddedConnection.with { _, connection in
            let padding = String(repeating: "x", count: 100_000)
            let line = Array(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":"\#(padding)"}}"#.utf8)
            var offset = 0
            while connection.channel.isActive, offset < line.count {
                try await connection.send(bytes: Array(line[offset..<min(offset + 8192, line.count)]))
                offset += 8192
            }
            let answer = try await connection.next()
            #expect(answer["error"]?["code"] == -32600)
            #expect(answer["error"]?["data"]?["reason"] == "request-too-large")
            #expect(answer["id"] == .null)
            #expect(!connection.channel.isActive)
            #expect(offset < line.count)
        }
    }

    @Test("a line of exactly 65,536 bytes is a request")
    func lineAtTheLimit() async throws {
        try await EmbeddedConnection.with { _, connection in
            let prefix = #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":""#
            let suffix = #""}}"#
            let padding = String(
                repeating: "y", count: ProtocolLimits.maximumRequestLineBytes - prefix.utf8.count - suffix.utf8.count)
            try await connection.send(prefix + padding + suffix + "\n")
            #expect(try await connection.next()["result"]?["server"] == "sesamed")
            #expect(connection.channel.isActive)
        }
    }

    @Test(
        "the same line with another id is answered with that id exactly as sent: numbers, strings, integers past 2^53 and past 64 bits",
        arguments: [
            "2", "-5", "0", "9007199254740993", "123456789012345678", "123456789012345678901234567890",
            #""a""#, #""request-42""#, #""""#, #""\u00e9""#, #""a\"b""#, "1.5", "1e3",
        ])
    func sameLineOtherID(id: String) async throws {
        try await EmbeddedConnection.with { _, connection in
            let line = { (id: String) in
                #"{"jsonrpc":"2.0","id":\#(id),"method":"getIdToken","params":{"minValidity":60}}"# + "\n"
            }
            try await connection.send(line("1"))
            let first = try await connection.nextLine()
            try await connection.send(line(id))
            let again = try await connection.nextLine()
            #expect(again.hasPrefix(#"{"id":\#(id),"#))
            #expect(again.dropFirst(#"{"id":\#(id),"#.count) == first.dropFirst(#"{"id":1,"#.count))
        }
    }

    @Test(
        "a line like the remembered one whose id is not valid gets the full decode's error, not the memo's answer",
        arguments: [
            ("01", -32700), ("-", -32700), ("1.", -32700), (#""a"#, -32700), ("true", -32600), ("[1]", -32600),
            ("{}", -32600), ("1,\"id\":\"x\"", 0),
        ])
    func sameLineInvalidID(id: String, code: Int) async throws {
        try await EmbeddedConnection.with { _, connection in
            let line = { (id: String) in #"{"jsonrpc":"2.0","id":\#(id),"method":"getState"}"# + "\n" }
            try await connection.send(line("1"))
            #expect(try await connection.next()["id"] == 1)
            try await connection.send(line(id))
            let answer = try await connection.next()
            if code == 0 {
                // Two ids: the last one counts, as in a full decode.
                #expect(answer["id"] == "x")
                #expect(answer["result"]?["status"] == "anonymous")
            } else {
                #expect(answer["error"]?["code"] == .integer(Int64(code)))
                #expect(answer["id"] == .null)
            }
            // The connection carries on, and the remembered line still works.
            try await connection.send(line("3"))
            #expect(try await connection.next()["id"] == 3)
        }
    }

    @Test("a different request after a remembered one is decoded for itself")
    func otherRequestAfterMemo() async throws {
        try await EmbeddedConnection.with { _, connection in
            let token = { (validity: Int) in
                #"{"jsonrpc":"2.0","id":1,"method":"getIdToken","params":{"minValidity":\#(validity)}}"# + "\n"
            }
            try await connection.send(token(60))
            #expect(try await connection.next()["result"]?["token"]?.stringValue != nil)
            // Same length, one byte apart: a negative validity is an invalid parameter.
            try await connection.send(token(-6))
            #expect(try await connection.next()["error"]?["code"] == -32602)
            try await connection.send(token(60))
            #expect(try await connection.next()["result"]?["token"]?.stringValue != nil)
            try await connection.send(
                #"{"jsonrpc":"2.0","id":1,"method":"getTokenId","params":{"minValidity":60}}"# + "\n")
            #expect(try await connection.next()["error"]?["code"] == -32601)
        }
    }

    @Test(
        "a lone client's answer is written as its read ends; while two connections' bursts interleave on a loop, both wait for the loop's flush"
    )
    func loneClientAndInterleaving() async throws {
        try await EmbeddedConnection.with { server, first in
            let loop = first.channel.testingEventLoop
            func read(_ connection: EmbeddedConnection, _ id: Int) async throws {
                try await connection.channel.writeInbound(ByteBuffer(string: Self.getState(id) + "\n"))
            }
            func written(_ connection: EmbeddedConnection) async throws -> Bool {
                try await connection.channel.readOutbound(as: ByteBuffer.self) != nil
            }
            // The loop's first burst waits for its flush.
            try await read(first, 1)
            #expect(try await written(first) == false)
            await loop.run()
            #expect(try await written(first))
            // The same connection again, nothing else on the loop: written as the read ends.
            try await read(first, 2)
            #expect(try await written(first))
            // Another connection on the same loop: its burst, and the first's next, wait for the flush.
            let second = try await EmbeddedConnection(server: server.server, loop: loop)
            try await read(second, 3)
            try await read(first, 4)
            #expect(try await written(second) == false)
            #expect(try await written(first) == false)
            await loop.run()
            #expect(try await written(second))
            #expect(try await written(first))
        }
    }
}
