import Foundation
import SesameHTTP
import Testing

@Suite("Retry-After parsing")
struct RetryAfterTests {
    /// 2027-01-15 08:00:00 UTC, a Friday.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(
        "seconds and the three HTTP-date forms become milliseconds",
        arguments: [
            ("0", 0),
            ("7", 7000),
            (" 120 ", 120_000),
            ("3600", 3_600_000),
            ("86400", RetryAfter.maximumMilliseconds),
            ("99999999999999999999999", RetryAfter.maximumMilliseconds),
            ("Fri, 15 Jan 2027 08:00:10 GMT", 10_000),
            ("Friday, 15-Jan-27 08:01:00 GMT", 60_000),
            ("Fri Jan 15 08:00:05 2027", 5000),
            ("Fri Jan  15 08:00:05 2027", 5000),
            ("Fri, 15 Jan 2027 07:00:00 GMT", 0),
            ("Sat, 16 Jan 2027 08:00:00 GMT", RetryAfter.maximumMilliseconds),
        ] as [(String, Int)]
    )
    func parses(header: String, milliseconds: Int) {
        #expect(RetryAfter.milliseconds(header, now: Self.now) == milliseconds)
    }

    @Test(
        "absent or unreadable headers give nil",
        arguments: [nil, "", "soon", "-5", "1.5", "Fri, 32 Jan 2027 08:00:00 GMT"] as [String?])
    func unreadable(header: String?) {
        #expect(RetryAfter.milliseconds(header, now: Self.now) == nil)
    }
}
