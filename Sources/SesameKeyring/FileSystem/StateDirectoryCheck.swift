#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state directory is checked the way ssh checks `~/.ssh`: whoever can write in it can
/// plant a keyring and key of their choosing (session fixation) or swap files under the
/// daemon, so it must belong to the daemon's user (or root) and not be writable by group or
/// others. A link to such a directory is fine (systemd's `DynamicUser=` makes
/// `/var/lib/sesame` a link into `/var/lib/private`); the directory it leads to is checked.
enum StateDirectoryCheck {
    /// - Parameter owner: the uid that may own the directory besides root (the daemon's).
    /// - Throws: ``FileRefusal/unsafe(_:)`` naming the directory and the command to run.
    static func verify(_ directory: String, owner: uid_t = geteuid()) throws(FileRefusal) {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            let error = SystemCallError(operation: "stat", path: directory, code: errno)
            throw .unsafe("The state directory \(directory) cannot be examined: \(error).")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .unsafe(
                "The state directory \(directory) is \(GuardedFile.kind(of: info.st_mode & S_IFMT)), not a directory. "
                    + "Remove it, or pass another --state-dir.")
        }
        guard info.st_uid == owner || info.st_uid == 0 else {
            throw .unsafe(
                "The state directory \(directory) belongs to uid \(info.st_uid), not to sesamed's user (uid \(owner)) "
                    + "or root, so its owner could replace the keyring. If it is yours, run: chown \(owner) \(directory)"
            )
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            throw .unsafe(
                "The state directory \(directory) is writable by group or others (mode \(GuardedFile.octal(mode))), "
                    + "so they could plant or swap the keyring. Run: chmod 0700 \(directory)")
        }
    }
}
