import SesameLocalAPI
import Testing

@Suite("Responses spliced around the request's own id bytes")
struct SplicedResponseTests {
    static let result: JSONValue = [
        "token": "a\"b\\c\u{1}", "uid": "u1", "n": 3, "nested": ["z": [1, 2.5, nil, true], "a": "é"],
    ]

    @Test(
        "a spliced success or failure is byte for byte the encoded message, for every kind of id",
        arguments: [
            LocalAPIRequestID.integer(7), .integer(-42), .integer(Int64.max), .string("req \"7\""), .null, .number(1.5),
        ])
    func sameBytesAsTheMessage(id: LocalAPIRequestID) {
        let idBytes = id.json.serialized()
        #expect(
            SplicedResponse.success(Self.result).line(id: idBytes)
                == LocalAPIMessage.success(id: id, result: Self.result).encoded())
        let error = LocalAPIError.invalidParams("The parameter \"x\" must be a string.")
        #expect(
            SplicedResponse.failure(error).line(id: idBytes) == LocalAPIMessage.failure(id: id, error: error).encoded())
    }

    @Test(
        "decoding keeps the outer id's bytes as sent",
        arguments: [
            (#"{"jsonrpc":"2.0","id":98765432109876543210987,"method":"getState"}"#, "98765432109876543210987"),
            (#"{"jsonrpc":"2.0","id":9007199254740993,"method":"getState"}"#, "9007199254740993"),
            (#"{ "id" :  -3 , "jsonrpc":"2.0","method":"getState"}"#, "-3"),
            (#"{"jsonrpc":"2.0","id":"x\u0041\"","method":"getState"}"#, #""x\u0041\"""#),
            (#"{"jsonrpc":"2.0","id":null,"method":"getState"}"#, "null"),
            (#"{"jsonrpc":"2.0","id":1e3,"method":"getState","params":{"id":5}}"#, "1e3"),
            (#"{"jsonrpc":"2.0","id":1,"id":2,"method":"getState"}"#, "2"),
        ])
    func keepsIDBytes(line: String, id: String) {
        let (decoded, bytes) = LocalAPIRequest.decodeKeepingID(line: Array(line.utf8))
        guard case .request = decoded else {
            Issue.record("not a request: \(decoded)")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == id)
        #expect(decoded == LocalAPIRequest.decode(line: Array(line.utf8)))
    }

    @Test(
        "failures keep the id when there is a valid one, else null",
        arguments: [
            (#"{"id":12345678901234567890,"method":"getState"}"#, "12345678901234567890"),
            (#"{"jsonrpc":"2.0","id":"a","method":7}"#, #""a""#),
            (#"{"jsonrpc":"2.0","id":{"x":1},"method":"getState"}"#, "null"),
            (#"{"jsonrpc":"2.0","id":1,"method":"getState""#, "null"),
            (#"[{"jsonrpc":"2.0","id":1,"method":"getState"}]"#, "null"),
        ])
    func failureIDs(line: String, id: String) {
        let (decoded, bytes) = LocalAPIRequest.decodeKeepingID(line: Array(line.utf8))
        guard case .failure = decoded else {
            Issue.record("not a failure: \(decoded)")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == id)
    }

    @Test("the method table: what the event loop answers, what the session service does")
    func venues() {
        let onLoop = LocalAPIMethod.allCases.filter { $0.venue == .eventLoop }
        #expect(Set(onLoop) == [.hello, .getState, .subscribe, .unsubscribe])
        #expect(LocalAPIMethod.getIdToken.venue == .eventLoopWhenCached)
        #expect(LocalAPIMethod.allCases.filter(\.changesSession).allSatisfy { $0.venue == .service })
    }
}
