#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where ``JournalLogHandler`` writes, decided once at bootstrap.
public enum LogSink: Sendable, Hashable {
    /// The native journal protocol (`sd_journal_sendv`), with structured fields.
    case journal
    /// Lines on standard error with `<N>` priority prefixes and `key=value` metadata; journald
    /// parses the prefixes when stderr is connected to it, and people can read them anywhere.
    case standardError

    /// journald's native socket.
    public static let journalSocketPath = "/run/systemd/journal/socket"

    /// The journal when `JOURNAL_STREAM` is set (stderr goes to journald) or journald's socket
    /// exists; standard error otherwise. With no journald, `sd_journal_sendv` drops messages
    /// without an error, hence the explicit check.
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - journalSocketExists: whether ``journalSocketPath`` exists; injectable for tests.
    public static func detect(
        environment: [String: String],
        journalSocketExists: Bool = access(LogSink.journalSocketPath, F_OK) == 0
    ) -> LogSink {
        if let stream = environment["JOURNAL_STREAM"], !stream.isEmpty { return .journal }
        return journalSocketExists ? .journal : .standardError
    }
}
