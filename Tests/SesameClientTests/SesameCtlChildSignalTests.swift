import Foundation
import SesameTesting
import Testing

@testable import sesamectl

/// What sesamectl starts begins as a program a shell starts: no blocked signal, no ignored one
/// (the threads sesamectl's async code runs on block signals; a child used to inherit that).
@Suite("sesamectl's children: the launched browser's signals", .timeLimit(.minutes(1)))
struct SesameCtlChildSignalTests {
    @Test("the launched browser has no blocked and no ignored signal, and gets the URL as its last argument")
    func browserStartsWithDefaultSignals() async throws {
        let directory = try makeTemporaryDirectory("browser")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/fake-browser"
        let record = directory + "/record"
        try """
        #!/bin/sh
        grep -E '^Sig(Blk|Ign):' /proc/self/status > "\(record).tmp"
        printf 'argv %s\\n' "$1" >> "\(record).tmp"
        mv "\(record).tmp" "\(record)"
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let url = "http://127.0.0.1:1/launch/one-time"
        let opened = await BrowserLauncher(environment: ["BROWSER": script]).open(url)
        #expect(opened)
        try await eventually("the fake browser wrote what it saw") { FileManager.default.fileExists(atPath: record) }
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Self.standardSignals(lines, "SigBlk") == 0, "\(lines)")
        #expect(Self.standardSignals(lines, "SigIgn") == 0, "\(lines)")
        #expect(lines.contains("argv \(url)"), "\(lines)")
    }

    @Test("a browser command that cannot start, or exits non-zero, is not an opened page")
    func failingBrowsers() async throws {
        let launcher = BrowserLauncher(environment: ["BROWSER": "/nonexistent/browser:false", "PATH": ""])
        #expect(launcher.commands(for: "u").map(\.first) == ["/nonexistent/browser", "false", "xdg-open"])
        #expect(await BrowserLauncher.run(["/nonexistent/browser", "u"], patience: .seconds(30)) == false)
        #expect(await BrowserLauncher.run(["false"], patience: .seconds(30)) == false)
        #expect(await BrowserLauncher.run(["true"], patience: .seconds(30)) == true)
    }

    /// The signals 1 to 31 in a mask line of /proc/PID/status (`SigBlk:\t…`). Signals 32 and 33
    /// belong to the C library, which lets no program change them; they are left out.
    static func standardSignals(_ lines: [String], _ field: String) -> UInt64? {
        lines.first { $0.hasPrefix(field + ":") }.flatMap { UInt64($0.dropFirst(field.count + 2), radix: 16) }
            .map { $0 & 0x7FFF_FFFF }
    }
}
