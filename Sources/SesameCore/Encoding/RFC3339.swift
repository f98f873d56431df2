import Foundation

/// RFC 3339 internet times (`2026-01-01T00:00:00Z`), written and read by hand: the one
/// formatter and parser of the daemon, its clients and the emulator.
///
/// Formatting is always UTC with `Z`. Parsing takes what RFC 3339 §5.6 allows: a fraction of
/// any length (read to the nanosecond), `Z` or a `±HH:MM` offset, `T`/`Z` in either case.
public enum RFC3339 {
    /// `instant` in whole seconds (a fraction is dropped): `2026-01-01T00:00:00Z`.
    public static func format(_ instant: Date) -> String {
        let seconds = instant.timeIntervalSince1970.rounded(.down)
        return format(seconds: Int64(exactly: seconds) ?? 0, milliseconds: nil)
    }

    /// Milliseconds since the epoch with three fraction digits, the way the Auth emulator
    /// writes `lastRefreshAt`: `2026-01-01T00:00:00.000Z`.
    public static func format(milliseconds: Int) -> String {
        let (seconds, remainder) = Int64(milliseconds).quotientAndRemainder(dividingBy: 1000)
        return remainder < 0
            ? format(seconds: seconds - 1, milliseconds: Int(remainder) + 1000)
            : format(seconds: seconds, milliseconds: Int(remainder))
    }

    /// The instant `text` names; nil unless it is an RFC 3339 date-time.
    public static func parse(_ text: String) -> Date? {
        var reader = Reader(Array(text.utf8))
        guard let year = reader.digits(4), reader.skip("-"), let month = reader.digits(2), reader.skip("-"),
            let day = reader.digits(2), reader.skip("T") || reader.skip("t"),
            let hour = reader.digits(2), reader.skip(":"), let minute = reader.digits(2), reader.skip(":"),
            let second = reader.digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24,
            minute < 60, second <= 60
        else { return nil }
        var nanoseconds = 0
        if reader.skip(".") {
            guard let fraction = reader.fraction() else { return nil }
            nanoseconds = fraction
        }
        var offset = 0
        if !(reader.skip("Z") || reader.skip("z")) {
            guard let sign = reader.sign(), let hours = reader.digits(2), reader.skip(":"),
                let minutes = reader.digits(2), hours < 24, minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard reader.atEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    private static func format(seconds: Int64, milliseconds: Int?) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let date = "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
        let time = "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
        return "\(date)T\(time)" + (milliseconds.map { ".\(pad($0, 3))" } ?? "") + "Z"
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (the civil-from-days inverse).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A cursor over ASCII bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// Exactly `count` decimal digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard bytes.count - index >= count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard let digit = Self.digit(byte) else { return nil }
                value = value * 10 + digit
            }
            index += count
            return value
        }

        /// One or more digits after the dot, as nanoseconds (digits past the ninth are read
        /// and dropped).
        mutating func fraction() -> Int? {
            var nanoseconds = 0
            var count = 0
            while index < bytes.count, let digit = Self.digit(bytes[index]) {
                if count < 9 { nanoseconds = nanoseconds * 10 + digit }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in min(count, 9)..<9 { nanoseconds *= 10 }
            return nanoseconds
        }

        /// `+` as 1, `-` as -1.
        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }

        private static func digit(_ byte: UInt8) -> Int? {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
        }
    }
}
