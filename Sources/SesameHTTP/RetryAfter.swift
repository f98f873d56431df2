import Foundation

/// The `Retry-After` response header (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
public enum RetryAfter {
    /// The longest wait accepted; a larger value (or a date further away) is clamped to it, so a
    /// wrong header cannot park a client for days.
    public static let maximumMilliseconds = 3_600_000

    /// Milliseconds to wait according to `value`, measured from `now` for a date; nil when the
    /// header is absent or unreadable. A date in the past is 0.
    ///
    /// Accepted: `delay-seconds` (digits only, `120`), and the three HTTP-date forms:
    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`)
    /// and asctime (`Sun Nov  6 08:49:37 1994`).
    public static func milliseconds(_ value: String?, now: Date) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            guard let seconds = Int(text) else { return maximumMilliseconds }  // too many digits
            return seconds > maximumMilliseconds / 1000 ? maximumMilliseconds : seconds * 1000
        }
        guard let date = httpDate(text) else { return nil }
        let delta = date.timeIntervalSince(now)
        guard delta > 0 else { return 0 }
        return delta * 1000 >= Double(maximumMilliseconds) ? maximumMilliseconds : Int((delta * 1000).rounded(.up))
    }

    /// Parses the three HTTP-date forms; nil for anything else.
    static func httpDate(_ text: String) -> Date? {
        // asctime pads a one-digit day with a space; collapse runs of spaces first.
        let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }
}
