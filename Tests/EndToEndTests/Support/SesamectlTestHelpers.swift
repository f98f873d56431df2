import Foundation
import SesameTesting
import Testing

/// What the `sesamectl` suites share: a daemon per test, and readers of a command's output.
protocol SesamectlTestHelpers {}

extension SesamectlTestHelpers {
    func withDaemon(
        settings: [String: [String: String]] = [:], _ body: (EmulatorProcess, DaemonProcess) async throws -> Void
    ) async throws {
        try await withEmulatorAndDaemon(settings: settings, body)
    }

    /// The JSON object a command printed.
    func object(_ result: CommandResult) throws -> [String: Any] {
        let data = Data(result.stdout.utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(result)")
    }

    /// An error's one line on standard error, checked to be exactly one line from sesamectl.
    func oneLine(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "not one line: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("sesamectl: "), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
        return String(lines.first ?? "")
    }
}
