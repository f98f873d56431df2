import Foundation
import SesameTesting
import Testing

/// `scripts/install.sh` (`make install`) into a temporary DESTDIR.
@Suite("install.sh", .serialized, .timeLimit(.minutes(2)))
struct InstallTests {
    @Test("scripts/install.sh installs into DESTDIR and PREFIX and keeps an existing sesamed.toml")
    func install() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let destdir = try makeTemporaryDirectory("inst")
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let run = { () async throws -> CommandResult in
            try await runCommand(
                "/bin/sh", [root + "/scripts/install.sh", BuiltBinaries.directory, destdir, "/opt/sesame"])
        }
        let first = try await run()
        #expect(first.status == 0, "\(first)")
        let fm = FileManager.default
        for binary in ["sesamed", "sesamectl", "sesame-emulator"] {
            #expect(fm.isExecutableFile(atPath: destdir + "/opt/sesame/bin/" + binary), "\(binary)")
        }
        let files = [
            "/opt/sesame/share/man/man1/sesamectl.1", "/opt/sesame/share/bash-completion/completions/sesamectl",
            "/opt/sesame/share/zsh/site-functions/_sesamectl",
            "/opt/sesame/share/fish/vendor_completions.d/sesamectl.fish",
            "/lib/systemd/system/sesamed.service", "/lib/systemd/system/sesamed.socket",
            "/usr/lib/systemd/user/sesamed.service", "/usr/lib/systemd/user/sesamed.socket",
            "/usr/lib/sysusers.d/sesame.conf", "/etc/sesame/sesamed.toml",
        ]
        for file in files {
            let size = (try? fm.attributesOfItem(atPath: destdir + file)[.size] as? Int) ?? 0
            #expect(size > 0, "\(file)")
        }
        let man = try String(contentsOfFile: destdir + "/opt/sesame/share/man/man1/sesamectl.1", encoding: .utf8)
        #expect(man.hasPrefix(".TH SESAMECTL 1"))
        for unit in ["/lib/systemd/system/sesamed.service", "/usr/lib/systemd/user/sesamed.service"] {
            let text = try String(contentsOfFile: destdir + unit, encoding: .utf8)
            #expect(text.contains("ExecStart=/opt/sesame/bin/sesamed"), "\(unit)")
            #expect(!text.contains("/usr/bin/sesamed"), "\(unit)")
        }
        let original = try String(contentsOfFile: root + "/etc/sesamed.toml", encoding: .utf8)
        #expect(try String(contentsOfFile: destdir + "/etc/sesame/sesamed.toml", encoding: .utf8) == original)
        // docs/systemd.md: 0640, readable by the daemon's group, not by everyone.
        let mode = try #require(
            try fm.attributesOfItem(atPath: destdir + "/etc/sesame/sesamed.toml")[.posixPermissions] as? Int)
        #expect(mode == 0o640, "mode \(String(mode, radix: 8))")

        // A second run (an upgrade) keeps the administrator's configuration.
        try "# mine\n".write(toFile: destdir + "/etc/sesame/sesamed.toml", atomically: true, encoding: .utf8)
        let second = try await run()
        #expect(second.status == 0, "\(second)")
        #expect(try String(contentsOfFile: destdir + "/etc/sesame/sesamed.toml", encoding: .utf8) == "# mine\n")

        let usage = try await runCommand("/bin/sh", [root + "/scripts/install.sh"])
        #expect(usage.status == 2)
    }
}
