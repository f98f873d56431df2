import SesameKeyring

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The data directory's file operations: each file is replaced with SesameKeyring's
/// ``DurableFile/replace(_:with:mode:)`` (a temporary `<name>.tmp-…` file, `fsync`ed, renamed,
/// the directory `fsync`ed: after a crash a file holds its old or its new bytes, never a mix).
/// All functions block; the emulator calls them from its saver only.
enum DataDirectoryFiles {
    /// Leftover temporary files (from a crash mid-write) start with the target's name and this.
    static let temporaryMarker = ".tmp-"

    /// Atomically and durably replaces (or creates) the file at `path` (mode 0600).
    static func replace(_ path: String, with bytes: [UInt8]) throws(SesameEmulatorError) {
        do {
            try DurableFile.replace(path, with: bytes, mode: 0o600)
        } catch {
            throw SesameEmulatorError("\(error.operation) \(error.path): \(String(cString: strerror(error.code)))")
        }
    }

    /// Creates `directory` and missing parents (mode 0700: the files hold password hashes).
    static func makeDirectory(_ directory: String) throws(SesameEmulatorError) {
        if directory.isEmpty || access(directory, F_OK) == 0 { return }
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

    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }

    private static func failure(_ operation: String, _ path: String, _ code: Int32) -> SesameEmulatorError {
        SesameEmulatorError("\(operation) \(path): \(String(cString: strerror(code)))")
    }
}
