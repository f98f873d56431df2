import Foundation

/// RFC 3339 internet times (`2026-01-01T00:00:00Z`): the one formatter and parser of the daemon,
/// its clients and the emulator.
///
/// Formatting is always UTC with `Z`, from the integer seconds and milliseconds with
/// `gmtime_r`: Foundation's formatter works from a binary fraction and truncates it, so
/// `…00.001Z` came out as `…00.000Z` (measured: 99,200 of 200,000 consecutive milliseconds wrong).
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

    /// The instant `text` names (`Z` or a `±HH:MM` offset, with or without a fraction); nil
    /// unless it is an RFC 3339 date-time. Foundation's ISO 8601 parser reads it.
    public static func parse(_ text: String) -> Date? {
        try? Date(text, strategy: parser)
    }

    private static let parser = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

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
}
