import Foundation
import SesameEmulator
import Testing

@Suite("TOTP (RFC 6238)")
struct TOTPTests {
    // RFC 6238 Appendix B's SHA-1 secret, "12345678901234567890"; its 8-digit codes end in these 6.
    let rfc = TOTP(key: Array("12345678901234567890".utf8))

    @Test("the RFC 6238 test vectors, as 6 digits")
    func rfcVectors() {
        let vectors: [(TimeInterval, String)] = [
            (59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"),
            (2_000_000_000, "279037"), (20_000_000_000, "353130"),
        ]
        for (seconds, code) in vectors {
            #expect(rfc.code(at: Date(timeIntervalSince1970: seconds)) == code)
        }
    }

    @Test("a code is accepted one step either side, and not two")
    func window() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(rfc.verify(rfc.code(at: now), at: now))
        #expect(rfc.verify(rfc.code(at: now.addingTimeInterval(-30)), at: now))
        #expect(rfc.verify(rfc.code(at: now.addingTimeInterval(30)), at: now))
        #expect(!rfc.verify(rfc.code(at: now.addingTimeInterval(-60)), at: now))
        #expect(!rfc.verify("12345", at: now))
        #expect(!rfc.verify("12345a", at: now))
    }

    @Test("base32 round-trips, ignoring case, spaces and padding")
    func base32() throws {
        let secret = TOTP.random()
        #expect(TOTP(base32: secret.base32) == secret)
        #expect(TOTP(base32: secret.base32.lowercased()) == secret)
        #expect(TOTP(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")?.key == Array("12345678901234567890".utf8))
        #expect(TOTP(base32: "GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ====") == rfc)
        #expect(TOTP(base32: "not base32!") == nil)
    }
}
