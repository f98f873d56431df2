import Foundation
import enum SesameCore.RFC3339

/// RFC 3339 UTC time strings, as every time on the wire.
public enum WireTime {
    public static func string(_ date: Date) -> String {
        RFC3339.format(date)
    }

    public static func json(_ date: Date?) -> JSONValue {
        date.map { .string(string($0)) } ?? .null
    }

    public static func parse(_ string: String) -> Date? {
        RFC3339.parse(string)
    }
}
