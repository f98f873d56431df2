import Logging

/// The syslog priority (0 emergency … 7 debug) journald stores in `PRIORITY=` and reads from
/// `<N>` line prefixes (sd-daemon.h).
public enum SyslogPriority: Int, Sendable, Hashable, CaseIterable {
    case emergency = 0, alert, critical, error, warning, notice, info, debug

    /// The priority for a swift-log level: trace and debug → 7, info → 6, notice → 5,
    /// warning → 4, error → 3, critical → 2.
    public init(_ level: Logger.Level) {
        switch level {
        case .trace, .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }

    /// The `<N>` prefix of a stderr line, e.g. `"<4>"` for a warning.
    public var linePrefix: String { "<\(rawValue)>" }
}
