import Foundation
import SesameCore
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("JSON value, Base64 and ETag codecs (Foundation and swift-crypto underneath)")
struct CodecTests {
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func base64MatchesRFC4648(plain: String, encoded: String) {
        #expect(Base64URL.standard(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded.replacingOccurrences(of: "=", with: ""))
        #expect(Base64URL.decode(encoded.replacingOccurrences(of: "=", with: "")) == Array(plain.utf8))
    }

    @Test func base64URLAlphabetAndGarbage() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.standard([0xFB, 0xFF]) == "+/8=")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("not base64!") == nil)
        #expect(Base64URL.decode("ab=c") == nil)
    }

    @Test func etagsAreBase64OfTheSHA1OfCanonicalJSON() throws {
        // Expected values computed independently (Python hashlib) from the canonical text.
        #expect(DatabaseValue.etag(of: "abc") == "uH9L+bewf1lEMFSLZTtJmOS0BAI=")
        let value = try JSONCoding.parse(#"{"b":[true,null],"a":1}"#)
        #expect(value.jsonString == #"{"a":1,"b":[true,null]}"#)
        #expect(DatabaseValue.etag(of: value) == "3xGzuSfOJHSvH1lWw3wvdBVIjqg=")
    }

    @Test func jsonRoundTripsAndIsCanonical() throws {
        let text = #"{"b":[1,2.5,-3e2,true,false,null],"a":"x\"\n\u00e9\ud83d\ude00/","c":{}}"#
        let value = try JSONCoding.parse(text)
        #expect(value["a"] == "x\"\né😀/")
        // An exponent makes a number, not an integer, even when its value is integral.
        #expect(value["b"] == [1, .number(2.5), .number(-300), true, false, nil])
        #expect(value.jsonString == #"{"a":"x\"\né😀/","b":[1,2.5,-300,true,false,null],"c":{}}"#)
        #expect(try JSONCoding.parse(value.jsonString).jsonString == value.jsonString)
        #expect(JSONValue.number(1.0).jsonString == "1")
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "01", "1.", "1e999", "tru", "\"\\x\"", "[1] 2",
        "{\"a\":\"\u{01}\"}",
    ])
    func jsonRejectsInvalidText(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONCoding.parse(text) }
    }

    @Test func jsonRefusesDeepNesting() {
        #expect(throws: JSONValue.ParseError.self) {
            try JSONCoding.parse(String(repeating: "[", count: 300) + String(repeating: "]", count: 300))
        }
        #expect((try? JSONCoding.parse(String(repeating: "[", count: 200) + String(repeating: "]", count: 200))) != nil)
        // Brackets inside strings do not count.
        #expect((try? JSONCoding.parse("[\"" + String(repeating: "[", count: 300) + "\"]")) != nil)
    }

    @Test func databaseValuesNormaliseAndPresent() throws {
        let stored = try DatabaseValue.normalize(
            ["a": nil, "b": [:], "c": ["x", nil, "z"], "d": [".sv": "timestamp"]], now: 42)
        #expect(stored == ["c": ["0": "x", "2": "z"], "d": 42])
        #expect(DatabaseValue.presentation(stored) == ["c": ["x", nil, "z"], "d": 42])
        #expect(DatabaseValue.presentation(["0": "a", "9": "b"]) == ["0": "a", "9": "b"])
        #expect(DatabaseValue.etag(of: .null) == "null_etag")
        #expect(DatabaseValue.etag(of: ["a": 1, "b": 2]) == DatabaseValue.etag(of: ["b": 2, "a": 1]))
    }
}
