#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a keyring or key file only when it is what it should be.
///
/// The file is opened with `O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC` (a symbolic link is refused,
/// dangling or not; a FIFO neither blocks nor is read), then checked on the open descriptor:
/// a regular file, owned by the daemon's user or root, not writable by group or others, not
/// readable beyond what ``Rules`` allow, and no larger than its cap (which also bounds what is
/// read, whatever the file grows to meanwhile). Public for sesamed's other files read at start
/// (the provisioning token).
public enum GuardedFile {
    /// What a file must be.
    public struct Rules: Sendable {
        /// What the file is, for messages ("keyring", "keyring key").
        public var role: String
        /// The largest size accepted.
        public var maximumBytes: Int
        /// Whether the group may read it (the key file: no; a systemd credential: yes, since
        /// its group bits show the ACL mask that grants the service user access).
        public var groupMayRead: Bool
        /// Whether others may read it.
        public var othersMayRead: Bool
        /// What to do about a link or a file that is not a regular one, in a message; nil: the
        /// keyring's (sesamed's own files).
        public var replacementAdvice: String?

        public init(
            role: String, maximumBytes: Int, groupMayRead: Bool, othersMayRead: Bool,
            replacementAdvice: String? = nil
        ) {
            self.role = role
            self.maximumBytes = maximumBytes
            self.groupMayRead = groupMayRead
            self.othersMayRead = othersMayRead
            self.replacementAdvice = replacementAdvice
        }

        /// The keyring: sealed, so readable is not a secret, but at most 1 MiB.
        static let keyring = Rules(role: "keyring", maximumBytes: 1 << 20, groupMayRead: true, othersMayRead: true)
        /// The key file beside the keyring: 0600 or stricter, at most 4 KiB.
        static let keyFile = Rules(role: "keyring key", maximumBytes: 4096, groupMayRead: false, othersMayRead: false)
        /// The systemd credential: never readable by others, at most 4 KiB.
        static let credential = Rules(
            role: "keyring key credential", maximumBytes: 4096, groupMayRead: true, othersMayRead: false)
    }

    /// The bytes of the file at `path`, or nil when nothing is there.
    /// - Parameter owner: the uid that may own the file besides root (the daemon's).
    /// - Throws: ``FileRefusal``.
    public static func contents(
        of path: String, rules: Rules, owner: uid_t = geteuid()
    ) throws(FileRefusal) -> [UInt8]? {
        var fd: Int32 = -1
        while true {
            fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { break }
            let code = errno
            if code == EINTR { continue }
            if code == ENOENT { return nil }
            if code == ELOOP {
                throw .unsafe(
                    "The \(rules.role) \(path) is a symbolic link; sesamed never follows links there. "
                        + (rules.replacementAdvice
                            ?? "Put the file itself in its place, or remove the link to start afresh."))
            }
            if code == EACCES || code == EPERM {
                throw .unsafe(
                    "The \(rules.role) \(path) cannot be opened by sesamed's user (uid \(owner)): "
                        + "\(SystemCallError(operation: "open", path: path, code: code)). Run: chown \(owner) \(path)")
            }
            throw .unreadable("cannot be opened (\(SystemCallError(operation: "open", path: path, code: code)))")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) != 0 {
            throw .unreadable("cannot be examined (\(SystemCallError(operation: "fstat", path: path, code: errno)))")
        }
        try check(info, path: path, rules: rules, owner: owner)
        return try readAll(fd, path: path, rules: rules)
    }

    /// The checks on an open file's status.
    static func check(_ info: stat, path: String, rules: Rules, owner: uid_t) throws(FileRefusal) {
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw .unsafe(
                "The \(rules.role) \(path) is \(kind(of: type)), not a regular file. "
                    + (rules.replacementAdvice
                        ?? "Remove it (sesamed creates its files itself), or put the real file there."))
        }
        guard info.st_uid == owner || info.st_uid == 0 else {
            throw .unsafe(
                "The \(rules.role) \(path) belongs to uid \(info.st_uid), not to sesamed's user (uid \(owner)) or root. "
                    + "If it is yours, run: chown \(owner) \(path)")
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            throw .unsafe(
                "The \(rules.role) \(path) is writable by group or others (mode \(octal(mode))). Run: chmod go-w \(path)"
            )
        }
        let forbidden: mode_t = (rules.groupMayRead ? 0 : 0o040) | (rules.othersMayRead ? 0 : 0o004)
        if mode & forbidden != 0 {
            throw .unsafe(
                "The \(rules.role) \(path) is readable by \(rules.groupMayRead ? "others" : "group or others") "
                    + "(mode \(octal(mode))); it is a secret. Run: chmod 0600 \(path)")
        }
        if Int(info.st_size) > rules.maximumBytes {
            throw .unreadable(tooLarge(Int(info.st_size), rules))
        }
    }

    private static func readAll(_ fd: Int32, path: String, rules: Rules) throws(FileRefusal) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int32
            do {
                count = try SystemCallError.check("read", path) {
                    chunk.withUnsafeMutableBytes { Int32(read(fd, $0.baseAddress, $0.count)) }
                }
            } catch {
                throw .unreadable("cannot be read (\(error))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<Int(count)])
            if bytes.count > rules.maximumBytes { throw .unreadable(tooLarge(bytes.count, rules)) }
        }
    }

    private static func tooLarge(_ size: Int, _ rules: Rules) -> String {
        let cap =
            rules.maximumBytes % 1024 == 0 ? "\(rules.maximumBytes / 1024) KiB" : "\(rules.maximumBytes) bytes"
        return "is \(size) bytes or more, larger than any \(rules.role) (at most \(cap))"
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func kind(of type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }
}
