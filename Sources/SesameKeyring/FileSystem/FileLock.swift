#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock(2)` on a lock file, held from `acquire` until `release` (or until the
/// process exits, when the kernel drops it).
///
/// The lock belongs to this open file description: a second `acquire` of the same path fails
/// even inside one process. Not `Sendable`: exactly one owner (the store) releases it.
final class FileLock {
    /// The path of the lock file.
    let path: String
    private var descriptor: Int32

    /// The outcome of trying to lock.
    enum Failure: Error {
        /// Another open file description holds the lock.
        case heldElsewhere
        /// The lock file could not be opened or locked.
        case system(SystemCallError)
        /// The lock file is a symbolic link, not a regular file, or not the daemon's.
        case refused(FileRefusal)
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Opens (creating with mode 0600 if needed) and locks `path` without waiting.
    ///
    /// Never through a symbolic link (`O_NOFOLLOW`: a planted link, dangling or not, is
    /// refused rather than followed to create or truncate a file elsewhere), never blocking on
    /// a FIFO (`O_NONBLOCK`), and only on a regular file of the daemon's user or root.
    /// - Throws: ``Failure/heldElsewhere`` on contention, ``Failure/refused(_:)`` for a link
    ///   or a file that is not the daemon's, ``Failure/system(_:)`` otherwise.
    static func acquire(_ path: String, owner: uid_t = geteuid()) throws(Failure) -> FileLock {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        if fd < 0 {
            let code = errno
            if code == ELOOP {
                throw .refused(
                    .unsafe(
                        "The lock file \(path) is a symbolic link; sesamed never follows links there. "
                            + "Remove the link (sesamed creates the file itself)."))
            }
            throw .system(SystemCallError(operation: "open", path: path, code: code))
        }
        var info = stat()
        if fstat(fd, &info) != 0 {
            let code = errno
            close(fd)
            throw .system(SystemCallError(operation: "fstat", path: path, code: code))
        }
        do {
            try GuardedFile.check(
                info, path: path,
                rules: .init(role: "lock file", maximumBytes: .max, groupMayRead: true, othersMayRead: true),
                owner: owner)
        } catch {
            close(fd)
            throw .refused(error)
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(fd)
            if code == EWOULDBLOCK { throw .heldElsewhere }
            throw .system(SystemCallError(operation: "flock", path: path, code: code))
        }
        return FileLock(path: path, descriptor: fd)
    }

    /// Whether the lock is still held by this object.
    var isHeld: Bool { descriptor >= 0 }

    /// Drops the lock; later calls do nothing.
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
