import Foundation

/// A fresh directory under /tmp for one test, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/sesame-keyring-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: errno \(errno)")
        path = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The keyring path inside this directory (in a `state` subdirectory the store creates).
    var keyringPath: String { "\(path)/state/keyring" }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The bytes of a file, or nil when it is missing.
    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// Writes `bytes` to `path` (creating its directory), mode 0600.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
    }

    /// The permission bits of `path`.
    static func mode(_ path: String) -> mode_t {
        var info = stat()
        precondition(stat(path, &info) == 0, "stat \(path) failed")
        return info.st_mode & 0o7777
    }

    /// Names in the directory of `path`.
    static func siblings(of path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)) ?? []
    }
}
