#if canImport(Glibc)
import Glibc
#endif

/// Sets the mode (and group) of the socket file the daemon just bound, without following a
/// symbolic link: whoever can write to the socket's directory could swap the name for a link
/// between `bind()` and `chmod()`, and `chmod(path)` would then change the file it points to.
///
/// The name is opened with `O_PATH | O_NOFOLLOW` (a link opens as the link itself); the
/// descriptor is checked to be a socket owned by the daemon; the group is set through the
/// descriptor (`fchownat` with `AT_EMPTY_PATH`) and the mode through `/proc/self/fd/N`, which
/// names exactly the inode that was checked.
enum SocketFile {
    /// Linux's `O_PATH` and `AT_EMPTY_PATH` (Swift's Glibc exports neither).
    private static let openPathOnly: Int32 = 0o10_000_000
    private static let emptyPath: Int32 = 0x1000

    /// - Throws: ``LocalAPIServerError`` when `path` is not the daemon's socket any more, or
    ///   the mode or group cannot be set.
    static func secure(_ path: String, mode: UInt32, group: UInt32?) throws {
        let fd = open(path, openPathOnly | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw LocalAPIServerError(message: "Cannot open the socket \(path) to set its mode: \(errnoText())")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw LocalAPIServerError(message: "Cannot inspect the socket \(path): \(errnoText())")
        }
        guard (info.st_mode & S_IFMT) == S_IFSOCK, info.st_uid == geteuid() else {
            throw LocalAPIServerError(
                message:
                    "\(path) is no longer the socket sesamed bound (it was replaced, for example by a symbolic link); not starting. Check who can write to its directory."
            )
        }
        if let group, info.st_gid != group {
            guard fchownat(fd, "", uid_t.max, gid_t(group), emptyPath) == 0 else {
                throw LocalAPIServerError(
                    message: "Cannot give the socket \(path) to group \(group) (socket.group): \(errnoText())")
            }
        }
        guard chmod("/proc/self/fd/\(fd)", mode_t(mode)) == 0 else {
            throw LocalAPIServerError(
                message: "Cannot set the mode of the socket \(path) (needs /proc mounted): \(errnoText())")
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
