#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import SesameLocalAPI
#endif

/// Crash-safe file replacement for the data directory, with plain system calls: a temporary
/// file next to the target (`O_EXCL`, mode 0600), written in full, `fsync`ed, renamed over the
/// target, then the directory `fsync`ed. After a crash the target holds its old or its new
/// bytes, never a mix. All functions block; the emulator calls them from its saver only.
enum DurableFile {
    /// Leftover temporary files (from a crash mid-write) start with the target's name and this.
    static let temporaryMarker = ".tmp-"

    /// Atomically and durably replaces (or creates) the file at `path`.
    /// - Throws: ``SesameEmulatorError`` naming the path and the failed call; the target is then
    ///   unchanged and the temporary file removed.
    static func replace(_ path: String, with bytes: [UInt8]) throws(SesameEmulatorError) {
        let temporary = "\(path)\(temporaryMarker)\(getpid())-\(UInt32.random(in: .min ... .max))"
        let fd = try check("open", temporary) { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        do {
            var offset = 0
            while offset < bytes.count {
                let written = try check("write", temporary) {
                    bytes.withUnsafeBytes { Int32(write(fd, $0.baseAddress! + offset, $0.count - offset)) }
                }
                offset += Int(written)
            }
            try check("fsync", temporary) { fsync(fd) }
            try check("close", temporary) { close(fd) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        do {
            try check("rename", path) { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncDirectory(directoryName(of: path))
    }

    /// Creates `directory` and missing parents (mode 0700: the files hold password hashes).
    static func makeDirectory(_ directory: String) throws(SesameEmulatorError) {
        var info = stat()
        if directory.isEmpty || stat(directory, &info) == 0 { return }
        let parent = directoryName(of: directory)
        if parent != directory { try makeDirectory(parent) }
        if mkdir(directory, 0o700) != 0, errno != EEXIST { throw failure("mkdir", directory, errno) }
    }

    /// The names of the entries of `directory` (none when it cannot be read).
    static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes a file; a missing one is fine.
    static func remove(_ path: String) throws(SesameEmulatorError) {
        if unlink(path) != 0, errno != ENOENT { throw failure("unlink", path, errno) }
    }

    /// Removes what a crash in ``replace(_:with:)`` left in `directory`.
    static func removeLeftovers(in directory: String) {
        for name in entries(of: directory) where name.contains(temporaryMarker) { unlink("\(directory)/\(name)") }
    }

    static func syncDirectory(_ directory: String) throws(SesameEmulatorError) {
        let fd = try check("open", directory) { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(fd) }
        try check("fsync", directory) { fsync(fd) }
    }

    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }

    /// Runs a call that returns -1 on failure, retrying on `EINTR`.
    @discardableResult
    private static func check(
        _ operation: String, _ path: String, _ call: () -> Int32
    ) throws(SesameEmulatorError) -> Int32 {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw failure(operation, path, code) }
        }
    }

    private static func failure(_ operation: String, _ path: String, _ code: Int32) -> SesameEmulatorError {
        SesameEmulatorError("\(operation) \(path): \(String(cString: strerror(code)))")
    }
}
