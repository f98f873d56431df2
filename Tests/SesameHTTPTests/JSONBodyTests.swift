import NIOCore
import NIOHTTP1
import SesameCore
import SesameHTTP
import Testing

@Suite("JSON bodies and percent-encoding")
struct JSONBodyTests {
    struct Answer: Decodable, Equatable {
        struct Inner: Decodable, Equatable { var id: String }
        var user: Inner
        var count: Int
    }

    @Test("requests are encoded with sorted keys and a JSON content type")
    func encode() {
        struct Body: Encodable {
            var b = "x/y"
            var a = 1
        }
        let request = HTTPRequest.json(name: "t", method: .POST, url: "http://h/p", body: Body())
        #expect(request.bodyText == #"{"a":1,"b":"x/y"}"#)
        #expect(request.headers.first(name: "content-type") == "application/json")
        #expect("\(request)" == "POST t (redacted)")
    }

    @Test("decoding failures name the field, never the value")
    func decodeFailures() throws {
        #expect(throws: JSONBodyError(summary: "missing field user.id")) {
            _ = try JSONBody.decode(Answer.self, from: Array(#"{"user":{"secret":"TOKEN"},"count":1}"#.utf8))
        }
        #expect(throws: JSONBodyError(summary: "unexpected type at count")) {
            _ = try JSONBody.decode(Answer.self, from: Array(#"{"user":{"id":"u"},"count":"TOKEN"}"#.utf8))
        }
        #expect(throws: JSONBodyError(summary: "not JSON")) {
            _ = try JSONBody.decode(Answer.self, from: Array("TOKEN".utf8))
        }
        #expect(
            try JSONBody.decode(Answer.self, from: Array(#"{"user":{"id":"u"},"count":2}"#.utf8))
                == Answer(user: .init(id: "u"), count: 2))
    }

    @Test("percent-encoding keeps only unreserved characters")
    func percentEncoding() {
        #expect(PercentEncoding.queryValue("a b&c=d/é,") == "a%20b%26c%3Dd%2F%C3%A9%2C")
        #expect(PercentEncoding.pathSegment("ann,lee/x") == "ann,lee%2Fx")
        #expect(
            PercentEncoding.form([("grant_type", "refresh_token"), ("k", "a+b")]) == "grant_type=refresh_token&k=a%2Bb")
    }
}
