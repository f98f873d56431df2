import Foundation
import Testing

@testable import SesameEmulator

@Suite("JSON, Base64 and SHA-1 codecs")
struct CodecTests {
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
    func base64MatchesRFC4648(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
        #expect(Base64.encodeURL(Array(plain.utf8)) == encoded.replacingOccurrences(of: "=", with: ""))
        #expect(Base64.decode(encoded.replacingOccurrences(of: "=", with: "")) == Array(plain.utf8))
    }

    @Test func base64URLAlphabetAndGarbage() {
        #expect(Base64.encodeURL([0xFB, 0xFF]) == "-_8")
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
        #expect(Base64.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64.decode("not base64!") == nil)
        #expect(Base64.decode("ab=c") == nil)
    }

    @Test func sha1KnownVectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(
            hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    @Test func jsonRoundTripsAndIsCanonical() throws {
        let text = #"{"b":[1,2.5,-3e2,true,false,null],"a":"x\"\n\u00e9\ud83d\ude00","c":{}}"#
        let value = try JSONParser.parse(text)
        #expect(value["a"] == "x\"\né😀")
        #expect(value["b"] == [1, .double(2.5), -300, true, false, nil])
        #expect(value.serialized() == #"{"a":"x\"\né😀","b":[1,2.5,-300,true,false,null],"c":{}}"#)
        #expect(try JSONParser.parse(value.serialized()) == value)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "tru", "\"\\x\"", "[1] 2", "1e999"])
    func jsonRejectsInvalidText(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test func jsonRefusesDeepNesting() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(String(repeating: "[", count: 300) + String(repeating: "]", count: 300)) }
        #expect((try? JSONParser.parse(String(repeating: "[", count: 200) + String(repeating: "]", count: 200))) != nil)
    }

    @Test func databaseValuesNormaliseAndPresent() throws {
        let stored = try DatabaseValue.normalize(["a": nil, "b": [:], "c": ["x", nil, "z"], "d": [".sv": "timestamp"]], now: 42)
        #expect(stored == ["c": ["0": "x", "2": "z"], "d": 42])
        #expect(DatabaseValue.presentation(stored) == ["c": ["x", nil, "z"], "d": 42])
        #expect(DatabaseValue.presentation(["0": "a", "9": "b"]) == ["0": "a", "9": "b"])
        #expect(DatabaseValue.etag(of: .null) == "null_etag")
        #expect(DatabaseValue.etag(of: ["a": 1, "b": 2]) == DatabaseValue.etag(of: ["b": 2, "a": 1]))
    }
}
