import Foundation

/// Where the built executables are: `$SESAME_BIN_DIR` (set by `make test`), else next to
/// the test binary, else `.build/debug` of this package.
enum Binaries {
    static let directory: String = {
        if let dir = ProcessInfo.processInfo.environment["SESAME_BIN_DIR"], !dir.isEmpty { return dir }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: beside.appendingPathComponent("sesamed").path) {
            return beside.path
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug").path
    }()

    static func path(_ name: String) -> String { directory + "/" + name }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A short temporary directory (Unix socket paths must stay under 108 bytes).
func makeTemporaryDirectory(_ prefix: String = "e2e") throws -> String {
    let path = "/tmp/\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Waits (on real time, bounded) until `condition` holds.
func waitUntil(
    _ what: String, timeout: Duration = .seconds(20), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if (try? await condition()) == true { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw HarnessError("timed out waiting until \(what)")
}
