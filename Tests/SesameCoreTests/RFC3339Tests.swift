import Foundation
import SesameCore
import Testing

@Suite("RFC 3339 times")
struct RFC3339Tests {
    @Test("formats an instant in whole UTC seconds, dropping a fraction")
    func formatsDates() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_795_255_200.999)) == "2026-11-21T10:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
    }

    @Test("formats milliseconds with three fraction digits")
    func formatsMilliseconds() {
        #expect(RFC3339.format(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.format(milliseconds: 1_795_255_200_007) == "2026-11-21T10:00:00.007Z")
        #expect(RFC3339.format(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    }

    @Test(
        "parses Z, offsets and fractions to the nanosecond",
        arguments: [
            ("2026-11-21T10:00:00Z", 1_795_255_200.0),
            ("2026-11-21t10:00:00z", 1_795_255_200.0),
            ("2026-11-21T12:30:00+02:30", 1_795_255_200.0),
            ("2026-11-21T09:00:00-01:00", 1_795_255_200.0),
            ("2026-11-21T10:00:00.5Z", 1_795_255_200.5),
            ("2026-11-21T10:00:00.123456Z", 1_795_255_200.123456),
            ("2026-11-21T10:00:00.123456789123+00:00", 1_795_255_200.123456789),
            ("2000-02-29T00:00:00Z", 951_782_400.0),
            ("1969-12-31T23:59:59Z", -1.0),
            ("9999-12-31T23:59:59Z", 253_402_300_799.0),
        ])
    func parses(text: String, seconds: Double) throws {
        let date = try #require(RFC3339.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(
        "refuses what is not an RFC 3339 date-time",
        arguments: [
            "", "2026-11-21", "2026-11-21T10:00:00", "2026-11-21 10:00:00Z", "2026-13-01T00:00:00Z",
            "2026-02-29T00:00:00Z", "2026-11-31T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T10:60:00Z",
            "2026-11-21T10:00:00.Z", "2026-11-21T10:00:00+0200", "2026-11-21T10:00:00Z ", "26-11-21T10:00:00Z",
            "2026-11-21T10:00:00+02:00:00", "Sun, 06 Nov 1994 08:49:37 GMT",
        ])
    func refuses(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test("reads back what it writes")
    func roundTrips() throws {
        for seconds in [0, 1, 59, 86_399, 951_782_400, 1_795_255_200, 4_102_444_799] {
            let date = Date(timeIntervalSince1970: Double(seconds))
            #expect(RFC3339.parse(RFC3339.format(date)) == date)
        }
    }
}
