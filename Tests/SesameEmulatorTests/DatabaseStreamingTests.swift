import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Reads server-sent events (`event:`/`data:` blocks ended by a blank line) from a response body.
struct ServerSentEvents {
    var iterator: HTTPClientResponse.Body.AsyncIterator
    var buffer: [UInt8] = []

    /// The next event's name and JSON data; nil when the stream ends.
    mutating func next() async throws -> (event: String, data: JSONValue)? {
        while true {
            if let end = blockEnd() {
                let block = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                var event = ""
                var data = JSONValue.null
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") {
                        data = (try? JSONCoding.parse(Array(line.dropFirst(6).utf8))) ?? .null
                    }
                }
                return (event, data)
            }
            guard let chunk = try await iterator.next() else { return nil }
            buffer.append(contentsOf: chunk.readableBytesView)
        }
    }

    private func blockEnd() -> Int? {
        guard buffer.count >= 2 else { return nil }
        return (0..<(buffer.count - 1)).first { buffer[$0] == 10 && buffer[$0 + 1] == 10 }
    }
}

@Suite("Realtime Database streaming GET")
struct DatabaseStreamingTests {
    static func open(_ emu: TestEmulator, _ path: String) async throws -> (HTTPClientResponse, ServerSentEvents) {
        var request = HTTPClientRequest(url: "\(emu.databaseBase)\(path)?ns=test")
        request.headers.add(name: "Accept", value: "text/event-stream")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        return (response, ServerSentEvents(iterator: response.body.makeAsyncIterator()))
    }

    @Test func putFirstThenPutsAndPatchesRelativeToTheLocation() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.database("PUT", "/room.json", ["a": 1])
            let (response, events) = try await Self.open(emu, "/room.json")
            var stream = events
            #expect(response.status == .ok)
            #expect(response.headers["content-type"].first == "text/event-stream")
            #expect(try await stream.next()?.data == ["path": "/", "data": ["a": 1]])
            _ = try await emu.database("PUT", "/room/b.json", 2)
            let put = try #require(try await stream.next())
            #expect(put.event == "put")
            #expect(put.data == ["path": "/b", "data": 2])
            _ = try await emu.database("PATCH", "/room.json", ["a": 5, "c/d": true])
            let patch = try #require(try await stream.next())
            #expect(patch.event == "patch")
            #expect(patch.data == ["path": "/", "data": ["a": 5, "c/d": true]])
            _ = try await emu.database("PUT", "/other.json", "unrelated")
            _ = try await emu.database("PUT", "/room/b.json", 2)  // unchanged: no event
            _ = try await emu.database("PUT", "/.json", ["room": ["z": 1]])
            #expect(try await stream.next()?.data == ["path": "/", "data": ["z": 1]])
            _ = try await emu.database("DELETE", "/room/z.json")
            #expect(try await stream.next()?.data == ["path": "/z", "data": nil])
        }
    }

    @Test func streamsEndWhenTheEmulatorStops() async throws {
        try await TestEmulator.with { emu in
            let (_, events) = try await Self.open(emu, "/a.json")
            var stream = events
            #expect(try await stream.next()?.data == ["path": "/", "data": nil])
            await emu.emulator.stop()
            while try await stream.next() != nil {}
        }
    }

    @Test func queriesOnStreamsAreRefused() async throws {
        try await TestEmulator.with { emu in
            let answer = try await emu.database(
                "GET", "/a.json", query: "ns=test&orderBy=%22$key%22", headers: [("Accept", "text/event-stream")])
            #expect(answer.status == 400)
        }
    }

    @Test func aListenerThatDoesNotReadIsDroppedWithoutBlockingWriters() async throws {
        var listeners = DatabaseListeners()
        let path = DatabasePath(keys: ["n"])
        let added = listeners.add(namespace: "t", path: path, identity: .owner, initial: .null)
        let idle = try #require(added)
        for i in 0...DatabaseListeners.bufferSize {
            listeners.replaced(
                namespace: "t", at: path, before: ["n": .integer(Int64(i))], after: ["n": .integer(Int64(i + 1))])
        }
        #expect(listeners.count == 0)
        var received = 0
        for await _ in idle.events { received += 1 }
        #expect(received == DatabaseListeners.bufferSize)
    }

    @Test func theNumberOfStreamsIsBounded() {
        var listeners = DatabaseListeners()
        for _ in 0..<DatabaseListeners.maximumCount {
            let added = listeners.add(namespace: "t", path: .root, identity: .owner, initial: .null)
            #expect(added != nil)
        }
        let refused = listeners.add(namespace: "t", path: .root, identity: .owner, initial: .null)
        #expect(refused == nil)
        listeners.remove(1)
        let again = listeners.add(namespace: "t", path: .root, identity: .owner, initial: .null)
        #expect(again != nil)
    }
}
