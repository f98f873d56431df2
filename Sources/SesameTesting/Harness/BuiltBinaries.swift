import Foundation

/// Where the package's built executables (`sesamed`, `sesamectl`, `sesame-emulator`) are:
/// `$SESAME_BIN_DIR` (set by `make test`), else beside the test binary, else `.build/debug`
/// of this package.
public enum BuiltBinaries {
    public static let directory: String = {
        if let directory = ProcessInfo.processInfo.environment["SESAME_BIN_DIR"], !directory.isEmpty {
            return directory
        }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: beside.appendingPathComponent("sesamed").path) {
            return beside.path
        }
        // Sources/SesameTesting/Harness/BuiltBinaries.swift → the package's root.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root = root.deletingLastPathComponent() }
        return root.appendingPathComponent(".build/debug").path
    }()

    /// The path of the built executable `name`.
    public static func path(_ name: String) -> String { directory + "/" + name }

    /// The path of the built executable `name`, when it was built.
    public static func existing(_ name: String) -> String? {
        FileManager.default.isExecutableFile(atPath: path(name)) ? path(name) : nil
    }
}

/// A new directory with a short path under /tmp (a Unix socket's path must stay under 108 bytes).
public func makeTemporaryDirectory(_ prefix: String = "test") throws -> String {
    let path = "/tmp/\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
