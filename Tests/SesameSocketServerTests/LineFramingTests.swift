import Foundation
import SesameLocalAPI
import Testing

/// How the connection splits the byte stream into lines (in place, without a copy of a
/// complete line) and answers a line it decoded before with another id (the request memo):
/// whatever the reads look like, and whatever the id, the answer is the one a full decode gives.
@Suite("Lines and the request memo, over a real Unix socket", .timeLimit(.minutes(1)))
struct LineFramingTests {
    static let getState = #"{"jsonrpc":"2.0","id":7,"method":"getState"}"#

    @Test("a request that arrives a few bytes at a time is answered once, when its newline comes")
    func splitAcrossReads() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            let bytes = Array((Self.getState + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + 5, bytes.count)
                try await client.send(bytes: Array(bytes[offset..<end]))
                try await Task.sleep(for: .milliseconds(2))
                offset = end
            }
            let answer = try await client.receive()
            #expect(answer["id"] == 7)
            #expect(answer["result"]?["status"] == "anonymous")
            // Nothing else came: the next answer is the next request's.
            let next = try await client.call("hello", id: 8)
            #expect(next["result"]?["server"] == "sesamed")
        }
    }

    @Test("lines in one write, and a line whose end comes with the next write, are answered in order")
    func linesAcrossWrites() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            let line = { (id: Int) in #"{"jsonrpc":"2.0","id":\#(id),"method":"getState"}"# }
            let first = line(1) + "\n\n" + line(2) + "\r\n" + line(3) + "\n" + line(4)
            try await client.send(bytes: Array(first.utf8))
            try await Task.sleep(for: .milliseconds(20))
            try await client.send(bytes: Array(("\n" + line(5) + "\n").utf8))
            var ids: [JSONValue] = []
            for _ in 0..<5 { ids.append(try await client.receive()["id"] ?? .null) }
            // The line ending in "\r" is still one request: white space around a value is JSON's.
            #expect(ids == [1, 2, 3, 4, 5])
        }
    }

    @Test(
        "the same line with another id is answered with that id exactly as sent: numbers, strings, integers past 2^53 and past 64 bits",
        arguments: [
            "2", "-5", "0", "9007199254740993", "123456789012345678", "123456789012345678901234567890",
            #""a""#, #""request-42""#, #""""#, #""\u00e9""#, #""a\"b""#, "1.5", "1e3",
        ])
    func sameLineOtherID(id: String) async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            let line = { (id: String) in
                #"{"jsonrpc":"2.0","id":\#(id),"method":"getIdToken","params":{"minValidity":60}}"#
            }
            try await client.send(line("1"))
            let first = try await client.receiveLine()
            try await client.send(line(id))
            let again = try await client.receiveLine()
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
        try await SocketHarness.withAnonymousClient { harness, client in
            let line = { (id: String) in #"{"jsonrpc":"2.0","id":\#(id),"method":"getState"}"# }
            try await client.send(line("1"))
            #expect(try await client.receive()["id"] == 1)
            try await client.send(line(id))
            let answer = try await client.receive()
            if code == 0 {
                // Two ids: the last one counts, as in a full decode.
                #expect(answer["id"] == "x")
                #expect(answer["result"]?["status"] == "anonymous")
            } else {
                #expect(answer["error"]?["code"] == .integer(Int64(code)))
                #expect(answer["id"] == .null)
            }
            // The connection carries on, and the remembered line still works.
            try await client.send(line("3"))
            #expect(try await client.receive()["id"] == 3)
        }
    }

    @Test("a different request after a remembered one is decoded for itself")
    func otherRequestAfterMemo() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            let token = { (validity: Int) in
                #"{"jsonrpc":"2.0","id":1,"method":"getIdToken","params":{"minValidity":\#(validity)}}"#
            }
            try await client.send(token(60))
            #expect(try await client.receive()["result"]?["token"]?.stringValue != nil)
            // Same length, one byte apart: a negative validity is an invalid parameter.
            try await client.send(token(-6))
            #expect(try await client.receive()["error"]?["code"] == -32602)
            try await client.send(token(60))
            #expect(try await client.receive()["result"]?["token"]?.stringValue != nil)
            try await client.send(#"{"jsonrpc":"2.0","id":1,"method":"getTokenId","params":{"minValidity":60}}"#)
            #expect(try await client.receive()["error"]?["code"] == -32601)
        }
    }
}
