import SesameLocalAPI
import Testing

@Suite("Request decoding follows PROTOCOL.md")
struct RequestDecodingTests {
    func decode(_ line: String) -> LocalAPIRequest.Decoded {
        LocalAPIRequest.decode(line: Array(line.utf8))
    }

    func failure(_ line: String) -> (LocalAPIRequestID, LocalAPIError)? {
        if case .failure(let id, let error) = decode(line) { return (id, error) }
        return nil
    }

    @Test("a valid request with params")
    func valid() throws {
        guard
            case .request(let request) = decode(
                #"{"jsonrpc":"2.0","id":7,"method":"getIdToken","params":{"forceRefresh":false}}"#)
        else {
            Issue.record("not decoded")
            return
        }
        #expect(request.id == .integer(7))
        #expect(request.method == "getIdToken")
        #expect(try request.params.optionalBool("forceRefresh") == false)
    }

    @Test(
        "ids: number, string and null are echoed; others are invalid with id null",
        arguments: [
            (#"{"jsonrpc":"2.0","id":"a-1","method":"x"}"#, LocalAPIRequestID.string("a-1")),
            (#"{"jsonrpc":"2.0","id":null,"method":"x"}"#, .null),
            (#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#, .number(1.5)),
            (#"{"jsonrpc":"2.0","id":-3,"method":"x"}"#, .integer(-3)),
        ])
    func ids(_ line: String, _ expected: LocalAPIRequestID) {
        guard case .request(let request) = decode(line) else {
            Issue.record("not a request")
            return
        }
        #expect(request.id == expected)
    }

    @Test(
        "invalid requests",
        arguments: [
            (#"{"jsonrpc":"2.0","id":{},"method":"x"}"#, LocalAPIRequestID.null, "invalid-request"),
            (#"{"jsonrpc":"2.0","id":[1],"method":"x"}"#, .null, "invalid-request"),
            (#"{"jsonrpc":"2.0","id":true,"method":"x"}"#, .null, "invalid-request"),
            (#"{"id":4,"method":"x"}"#, .integer(4), "invalid-request"),
            (#"{"jsonrpc":"1.0","id":"q","method":"x"}"#, .string("q"), "invalid-request"),
            (#"{"jsonrpc":"2.0","id":5,"method":3}"#, .integer(5), "invalid-request"),
            (#"{"jsonrpc":"2.0","id":5}"#, .integer(5), "invalid-request"),
            (#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#, .null, "invalid-request"),
            (#""just a string""#, .null, "invalid-request"),
            (#"{"jsonrpc":"2.0","id":6,"method":"x","params":[1]}"#, .integer(6), "invalid-params"),
            (#"{"jsonrpc":"2.0","id":6,"method":"x""#, .null, "parse-error"),
            ("not json", .null, "parse-error"),
            (#"{"jsonrpc":"2.0","id":1,"method":"x"} trailing"#, .null, "parse-error"),
        ])
    func invalid(_ line: String, _ id: LocalAPIRequestID, _ reason: String) throws {
        let (gotID, error) = try #require(failure(line))
        #expect(gotID == id)
        #expect(error.reason == reason)
        let expectedCode: LocalAPIErrorCode =
            reason == "parse-error" ? .parseError : reason == "invalid-params" ? .invalidParams : .invalidRequest
        #expect(error.code == expectedCode)
    }

    @Test(
        "member names are compared as JSON strings (escapes included), and of a repeated name the last counts, in params too"
    )
    func memberNames() throws {
        let line =
            #"{"jsonrpc":"2.0","\u0069d":5,"method":"getIdToken","params":{"minValidity":1,"min\u0056alidity":60,"x":[{}]},"id":6}"#
        guard case .request(let request) = decode(line) else {
            Issue.record("not decoded")
            return
        }
        #expect(request.id == .integer(6))
        #expect(try request.params.optionalNumber("minValidity") == 60)
        #expect(request.params.values.count == 2)
        guard case .request(let escaped) = decode(#"{"jsonrpc":"2.0","\u0069d":5,"method":"hello"}"#) else {
            Issue.record("not decoded")
            return
        }
        #expect(escaped.id == .integer(5))
    }

    @Test("a request without id is a notification: nothing to answer")
    func notification() {
        #expect(decode(#"{"jsonrpc":"2.0","method":"signOut"}"#) == .notification)
    }

    @Test("blank lines are ignored")
    func blank() {
        #expect(decode("") == .blank)
        #expect(decode("  \r") == .blank)
    }

    @Test("mistyped params are invalid-params with a message naming the field")
    func mistyped() throws {
        let params = LocalAPIParams(["reset": "yes", "email": 3])
        #expect(throws: LocalAPIError.self) { try params.optionalBool("reset") }
        do {
            _ = try params.string("email")
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("email"))
            #expect(error.code == .invalidParams)
        }
        do {
            _ = try params.string("password")
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("required"))
        }
    }
}

@Suite("JSON parser and serializer")
struct JSONTests {
    @Test("round trips, with every control character escaped so a value is one line")
    func roundTrip() throws {
        let value: JSONValue = [
            "s": "line\nbreak \"quoted\" \\ tab\t \u{01} é 😀", "n": 12, "d": 1.5, "b": true, "z": nil,
            "a": [1, "x", [:]], "big": .integer(9_007_199_254_740_993),
        ]
        let bytes = value.serialized()
        #expect(!bytes.contains(UInt8(ascii: "\n")))
        #expect(try JSONValue.parse(bytes) == value)
    }

    @Test(
        "escapes and surrogate pairs decode",
        arguments: [
            (#""\u00e9\ud83d\ude00\n\/""#, "é😀\n/"),
            (#""plain""#, "plain"),
        ])
    func escapes(_ text: String, _ expected: String) throws {
        #expect(try JSONValue.parse(text) == .string(expected))
    }

    @Test(
        "rejects what is not JSON",
        arguments: [
            "", "{", "[1,]", "{\"a\":}", "01", "1.", "-", "tru", "\"\\x\"", "\"\u{01}\"", "\"\\ud800\"", "{\"a\" 1}",
            "1e",
            "nan", String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
        ])
    func rejects(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(text) }
    }

    @Test("invalid UTF-8 in a string is a parse error")
    func invalidUTF8() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test("object keys come out sorted, so output is stable")
    func sorted() {
        #expect(JSONValue.object(["b": 1, "a": 2]).jsonString == #"{"a":2,"b":1}"#)
    }
}

@Suite("Messages")
struct MessageTests {
    @Test("responses and notifications round trip through the client decoder")
    func roundTrip() throws {
        let messages: [LocalAPIMessage] = [
            .success(id: .integer(1), result: ["x": 1]),
            .failure(id: .string("a"), error: .methodNotFound("nope")),
            .notification(method: "shutdown", params: ["reason": "stopping", "sequence": 4]),
        ]
        for message in messages {
            #expect(try LocalAPIMessage.decode(line: message.encoded()) == message)
        }
    }

    @Test(
        "the client decoder reports a malformed line as an error instead of crashing",
        arguments: [
            "garbage", "{}", #"{"jsonrpc":"2.0","id":{}}"#, #"{"jsonrpc":"2.0","id":1}"#, "[]",
        ])
    func malformed(_ line: String) {
        #expect(throws: LocalAPIError.self) { try LocalAPIMessage.decode(line: Array(line.utf8)) }
    }

    @Test("State encodes null user and token explicitly and round trips")
    func state() throws {
        let state = WireState(
            status: "signedOut", user: nil, tokenExpiresAt: nil, connectivity: "offline", needsUsername: false,
            pendingMerges: [], sequence: 3)
        let json = state.json
        #expect(json["user"] == .null)
        #expect(json["token"] == .null)
        #expect(WireState(json: json) == state)
    }
}
