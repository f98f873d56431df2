import Foundation

/// Formats instants the way the Auth emulator writes `lastRefreshAt`: `2026-01-01T00:00:00.000Z`.
public enum RFC3339 {
    public static func format(milliseconds: Int) -> String {
        let seconds = Double(milliseconds) / 1000
        var t = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        let ms = milliseconds % 1000
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(ms), 3))Z"
    }
}
