import Foundation
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamed` started on a hostile state directory (red-team findings of issue #25): every case
/// stops at once with the documented status (78: fix a link, FIFO, owner or mode; 65: a file
/// that cannot be a keyring) and a message naming the file and what to do; nothing planted is
/// followed, replaced or created through.
@Suite("sesamed: hostile state directory and keyring files")
struct HostileStateTests {
    /// A temporary directory with a minimal configuration and an empty state directory (0700).
    struct Rig {
        let directory: String
        var state: String { directory + "/state" }
        var keyring: String { state + "/keyring" }
        var key: String { state + "/keyring.key" }

        init() throws {
            directory = try makeTemporaryDirectory("hs")
            let text = "[firebase]\napi_key = \"k\"\nproject_id = \"p\"\nauth_emulator_host = \"127.0.0.1:9\"\n"
            try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
            #expect(mkdir(state, 0o700) == 0)
        }

        /// Runs sesamed to its exit (it must not block: 20 s at most).
        func run(environment: [String: String] = [:]) async throws -> CommandResult {
            try await runCommand(
                BuiltBinaries.path("sesamed"),
                ["--config", directory + "/c.toml", "--state-dir", state, "--socket", directory + "/s.sock"],
                environment: environment, timeout: .seconds(20))
        }

        func remove() { try? FileManager.default.removeItem(atPath: directory) }

        /// Whether something (a link counts) is at `path`.
        static func exists(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0
        }
    }

    private func expectRefusal(
        _ result: CommandResult, status: Int32, naming path: String, saying phrases: [String]
    ) {
        #expect(result.status == status, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains(path), "\(result.stderr)")
        for phrase in phrases { #expect(result.stderr.contains(phrase), "\(result.stderr)") }
    }

    @Test("a dangling symlink at keyring.key is refused with 78, not followed in a loop")
    func danglingKeySymlink() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        #expect(symlink(rig.directory + "/nowhere", rig.key) == 0)
        let result = try await rig.run()
        expectRefusal(result, status: 78, naming: rig.key, saying: ["symbolic link"])
        #expect(!Rig.exists(rig.directory + "/nowhere"))
    }

    @Test("a dangling credential keyring.key is refused with 78")
    func danglingCredential() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let credentials = rig.directory + "/credentials"
        #expect(mkdir(credentials, 0o700) == 0)
        #expect(symlink(rig.directory + "/nowhere", credentials + "/keyring.key") == 0)
        let result = try await rig.run(environment: ["CREDENTIALS_DIRECTORY": credentials])
        expectRefusal(result, status: 78, naming: credentials + "/keyring.key", saying: ["symbolic link"])
    }

    @Test("a FIFO as the keyring, the key or the credential is refused with 78 at once", arguments: [0, 1, 2])
    func fifo(which: Int) async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let credentials = rig.directory + "/credentials"
        #expect(mkdir(credentials, 0o700) == 0)
        let path = [rig.keyring, rig.key, credentials + "/keyring.key"][which]
        #expect(mkfifo(path, 0o600) == 0)
        let result = try await rig.run(environment: which == 2 ? ["CREDENTIALS_DIRECTORY": credentials] : [:])
        expectRefusal(result, status: 78, naming: path, saying: ["a FIFO, not a regular file"])
    }

    @Test("a keyring over 1 MiB is refused with 65 without reading it all")
    func hugeKeyring() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let fd = open(rig.keyring, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        #expect(fd >= 0)
        #expect(ftruncate(fd, 1 << 30) == 0)
        close(fd)
        let result = try await rig.run()
        expectRefusal(
            result, status: 65, naming: rig.keyring, saying: ["larger than any keyring", "move the file aside"])
    }

    @Test("a symlink at the keyring path, dangling or not, is refused and never replaced", arguments: [false, true])
    func keyringSymlink(dangling: Bool) async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let target = rig.directory + "/elsewhere"
        if !dangling { try Data("not yours".utf8).write(to: URL(fileURLWithPath: target)) }
        #expect(symlink(target, rig.keyring) == 0)
        let result = try await rig.run()
        expectRefusal(result, status: 78, naming: rig.keyring, saying: ["symbolic link"])
        var info = stat()
        #expect(lstat(rig.keyring, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link must stay")
        #expect(Rig.exists(target) == !dangling)
    }

    @Test("a state directory writable by group or others is refused with 78 and the chmod to run")
    func writableStateDirectory() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        #expect(chmod(rig.state, 0o777) == 0)
        let result = try await rig.run()
        expectRefusal(result, status: 78, naming: rig.state, saying: ["writable by group or others", "chmod 0700"])
        #expect(!Rig.exists(rig.key), "nothing is created in it")
    }

    @Test("a state directory owned by another user is refused with 78 and the chown to run")
    func foreignStateDirectory() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        // Giving the directory away takes root, as the test suite runs (make test, CI).
        try #require(chown(rig.state, 65_534, 65_534) == 0, "chown needs root: errno \(errno)")
        let result = try await rig.run()
        expectRefusal(
            result, status: 78, naming: rig.state, saying: ["belongs to uid 65534", "chown \(geteuid())"])
    }

    @Test("a key readable by group or others is refused with 78 and the chmod to run")
    func readableKey() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        try Data(String(repeating: "ab", count: 32).utf8).write(to: URL(fileURLWithPath: rig.key))
        #expect(chmod(rig.key, 0o644) == 0)
        let result = try await rig.run()
        expectRefusal(result, status: 78, naming: rig.key, saying: ["readable by group or others", "chmod 0600"])
    }

    @Test("a planted keyring.lock symlink is not followed: nothing is created where it points")
    func lockSymlink() async throws {
        let rig = try Rig()
        defer { rig.remove() }
        let victim = rig.directory + "/victim"
        #expect(symlink(victim, rig.keyring + ".lock") == 0)
        let result = try await rig.run()
        expectRefusal(result, status: 78, naming: rig.keyring + ".lock", saying: ["symbolic link"])
        #expect(!Rig.exists(victim))
    }
}
