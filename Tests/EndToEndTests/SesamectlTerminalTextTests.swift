import Foundation
import SesameTesting
import Testing

/// Text from the backend reaches a person's terminal with its control characters made visible
/// (issue 31, 6d): an escape sequence in a display name is shown as `^[`, not obeyed; `--json`
/// keeps the exact value.
@Suite("sesamectl shows the backend's text safely", .serialized, .timeLimit(.minutes(3)))
struct SesamectlTerminalTextTests: SesamectlTestHelpers {
    @Test("a display name holding ESC [2J and a C1 CSI: status shows ^[[2J and M-^[; --json keeps them exactly")
    func displayNameEscapes() async throws {
        try await withDaemon { _, daemon in
            let name = "Ann\u{1B}[2J\u{1B}]0;owned\u{07}\u{9B}31m"
            let updated = try await daemon.ctl(["update-profile", "--display-name", name])
            #expect(updated.status == 0, "\(updated)")
            #expect(!updated.stdout.contains("\u{1B}") && !updated.stderr.contains("\u{1B}"), "\(updated)")
            let status = try await daemon.ctl(["status"])
            #expect(status.status == 0, "\(status)")
            #expect(status.stdout.contains("Ann^[[2J^[]0;owned^GM-^[31m"), "\(status.stdout)")
            #expect(!status.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
            let json = try await daemon.ctl(["status", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect((object?["user"] as? [String: Any])?["displayName"] as? String == name, "\(json.stdout)")
        }
    }
}
