import Foundation
import SesameTesting
import Testing

/// Starts the built `sesamed` once per value of `section.key` (with a minimal Firebase
/// configuration) and expects each start to stop with 78, naming the key.
func expectRefused(section: String, key: String, values: [String]) async throws {
    let directory = try makeTemporaryDirectory("cf")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for value in values {
        let text = "[\(section)]\n\(key) = \(value)\n[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n"
        try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        let result = try await runCommand(
            BuiltBinaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"])
        #expect(result.status == 78, "\(key) = \(value) → \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("\(section).\(key)"), "\(key) = \(value) → \(result.stderr)")
    }
}
