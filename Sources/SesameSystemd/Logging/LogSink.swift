#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where ``JournalLogHandler`` writes, decided once at bootstrap; see ``detect(environment:)``.
public enum LogSink: Sendable, Hashable {
    /// The native journal protocol (`sd_journal_sendv`), with structured fields.
    case journal
    /// Lines on standard error with `<N>` priority prefixes (sd-daemon(3)) and `key=value`
    /// metadata: for a standard error that is journald's stream, which reads the prefixes.
    case journalStream
    /// Lines for a person on standard error: `sesamed: message key=value`, with `warning: ` (or
    /// the level) after the name for anything but info and notice; no `<N>` prefix.
    case standardError

    /// journald's native socket.
    public static let journalSocketPath = "/run/systemd/journal/socket"

    /// A file's identity, as `fstat` reports it and `$JOURNAL_STREAM` names it.
    public struct FileIdentity: Sendable, Hashable {
        public var device: UInt64
        public var inode: UInt64

        public init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }

        /// `DEVICE:INODE` in decimal, as systemd writes `$JOURNAL_STREAM`; `nil` for anything else.
        public init?(journalStream: String) {
            let parts = journalStream.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
            self.init(device: device, inode: inode)
        }

        /// The identity of an open descriptor; `nil` when it is closed.
        public static func of(descriptor: Int32) -> FileIdentity? {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    /// systemd's convention (systemd.exec(5), `$JOURNAL_STREAM`): standard error is connected to
    /// the journal only when `$JOURNAL_STREAM` names the very file standard error is. The
    /// variable alone proves nothing: children inherit it (a terminal started by a user
    /// service, a shell, `make run`) while their standard error goes elsewhere.
    /// - Parameters:
    ///   - journalStream: `$JOURNAL_STREAM`, if set.
    ///   - standardError: the identity of descriptor 2, if open.
    ///   - journalSocketExists: whether ``journalSocketPath`` exists (without it,
    ///     `sd_journal_sendv` drops messages silently).
    /// - Returns: ``journal`` when standard error is journald's stream and the native socket
    ///   exists, ``journalStream`` when it is that stream but the socket is missing, else
    ///   ``standardError``.
    public static func choose(
        journalStream: String?, standardError: FileIdentity?, journalSocketExists: Bool
    ) -> LogSink {
        guard let journalStream, let named = FileIdentity(journalStream: journalStream), let standardError,
            named == standardError
        else { return .standardError }
        return journalSocketExists ? .journal : .journalStream
    }

    /// ``choose(journalStream:standardError:journalSocketExists:)`` for this process.
    /// - Parameter environment: the process environment (`JOURNAL_STREAM` is read).
    public static func detect(environment: [String: String]) -> LogSink {
        choose(
            journalStream: environment["JOURNAL_STREAM"], standardError: .of(descriptor: STDERR_FILENO),
            journalSocketExists: access(journalSocketPath, F_OK) == 0)
    }
}
