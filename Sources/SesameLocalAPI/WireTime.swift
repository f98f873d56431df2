import Foundation

/// RFC 3339 UTC time strings, as every time on the wire.
public enum WireTime {
    public static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: .gmt))
    }

    public static func json(_ date: Date?) -> JSONValue {
        date.map { .string(string($0)) } ?? .null
    }

    public static func parse(_ string: String) -> Date? {
        if let date = try? Date(string, strategy: Date.ISO8601FormatStyle(timeZone: .gmt)) { return date }
        return try? Date(string, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }
}
