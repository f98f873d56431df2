#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crash-safe replacement with plain system calls (reads go through ``GuardedFile``).
///
/// `replace` is the usual durable-replace recipe: a temporary file in the same directory, created
/// with `O_EXCL` and the requested mode, written in full, `fsync`ed, renamed over the target,
/// then the directory `fsync`ed. After a crash at any point the target holds either its old or
/// its new bytes. All functions block; call them off any event loop.
public enum DurableFile {
    /// The prefix of temporary files made next to `path`; leftovers after a crash match it.
    static func temporaryPrefix(for path: String) -> String { "\(path).tmp-" }

    /// Whether something exists at `path` (any file type; a dangling symlink counts).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Atomically and durably replaces (or creates) the file at `path` with `bytes`.
    /// - Parameters:
    ///   - bytes: the complete new contents.
    ///   - path: the target; its directory must exist.
    ///   - mode: the permission bits of the new file (the umask still applies, so 0600 stays 0600).
    /// - Throws: ``SystemCallError``; the target is then unchanged and the temporary file removed.
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws(SystemCallError) {
        let temporary = try writeTemporary(next: path, bytes: bytes, mode: mode)
        do {
            try SystemCallError.check("rename", path) { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncDirectory(of: path)
    }

    /// Durably creates the file at `path` with `bytes`, never replacing an existing one.
    ///
    /// The file appears complete or not at all (a fully written temporary file is hard-linked
    /// into place).
    /// - Returns: false when something already exists at `path` (it is left alone).
    /// - Throws: ``SystemCallError`` for any other failure.
    static func createNew(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws(SystemCallError) -> Bool {
        let temporary = try writeTemporary(next: path, bytes: bytes, mode: mode)
        defer { unlink(temporary) }
        if link(temporary, path) != 0 {
            let code = errno
            if code == EEXIST { return false }
            throw SystemCallError(operation: "link", path: path, code: code)
        }
        try syncDirectory(of: path)
        return true
    }

    /// Creates `directory` and any missing parents with `mode`; existing ones are left as they are.
    static func makeDirectory(_ directory: String, mode: mode_t = 0o700) throws(SystemCallError) {
        if directory.isEmpty || exists(directory) { return }
        let parent = directoryName(of: directory)
        if parent != directory { try makeDirectory(parent, mode: mode) }
        if mkdir(directory, mode) != 0 {
            let code = errno
            if code != EEXIST { throw SystemCallError(operation: "mkdir", path: directory, code: code) }
        }
    }

    /// Removes temporary files that a crashed `replace` or `createNew` left next to `path`.
    /// Call only while holding the lock that serialises writers of `path`.
    static func removeLeftovers(next path: String) {
        let directory = directoryName(of: path)
        let prefix = baseName(of: temporaryPrefix(for: path))
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(prefix) { unlink("\(directory)/\(name)") }
        }
    }

    /// The directory part of `path` (`"."` for a bare name).
    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }

    /// The last component of `path`.
    static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    // MARK: - Steps

    private static func writeTemporary(
        next path: String, bytes: [UInt8], mode: mode_t
    ) throws(SystemCallError) -> String {
        let temporary = "\(temporaryPrefix(for: path))\(getpid())-\(UInt32.random(in: .min ... .max))"
        let fd = try SystemCallError.check("open", temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        }
        do {
            var offset = 0
            while offset < bytes.count {
                let written = try SystemCallError.check("write", temporary) {
                    bytes.withUnsafeBytes { Int32(write(fd, $0.baseAddress! + offset, $0.count - offset)) }
                }
                offset += Int(written)
            }
            try SystemCallError.check("fsync", temporary) { fsync(fd) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        if close(fd) != 0 {
            let code = errno
            unlink(temporary)
            throw SystemCallError(operation: "close", path: temporary, code: code)
        }
        return temporary
    }

    private static func syncDirectory(of path: String) throws(SystemCallError) {
        let directory = directoryName(of: path)
        let fd = try SystemCallError.check("open", directory) { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(fd) }
        try SystemCallError.check("fsync", directory) { fsync(fd) }
    }
}
