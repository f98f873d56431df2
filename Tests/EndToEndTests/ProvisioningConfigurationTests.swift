import Foundation
import SesameClient
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `[oauth."<providerId>"]` and `provisioning.token_file` with the built daemon.
@Suite("sesamed sign-in flow configuration")
struct ProvisioningConfigurationTests {
    static let firebase = "[firebase]\napi_key = \"k\"\nproject_id = \"p\"\nauth_emulator_host = \"127.0.0.1:1\"\n"

    @Test("a bad [oauth] table stops sesamed with 78 and a message naming the key, never the secret")
    func badTable() async throws {
        let directory = try makeTemporaryDirectory("oa")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = Self.firebase + "[oauth.\"google.com\"]\nclient_secret = \"SECRET-CLIENT\"\nscope = [\"openid\"]\n"
        try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        let result = try await runCommand(
            BuiltBinaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("oauth.\"google.com\".scope"), "\(result.stderr)")
        #expect(!result.stderr.contains("SECRET"))
    }

    @Test("a token file that cannot be read is a warning naming the path; the daemon starts, and never logs a token")
    func tokenFile() async throws {
        let directory = try makeTemporaryDirectory("pv")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, content) in [("missing", nil), ("present", "SECRET-CUSTOM-TOKEN\n")] {
            if let content { try content.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
            let text =
                Self.firebase
                + "[socket]\npath = \"\(directory)/\(name).sock\"\n[provisioning]\ntoken_file = \"\(name)\"\n"
            try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
            let daemon = try await ChildProcess(
                BuiltBinaries.path("sesamed"),
                [
                    "--config", directory + "/c.toml", "--state-dir", directory + "/state-" + name, "--log-level",
                    "debug",
                ],
                environment: ["CREDENTIALS_DIRECTORY": directory], logPrefix: directory + "/sesamed-" + name)
            defer { if daemon.isRunning { daemon.signal(SIGKILL) } }
            let client = SesameClient(socketPath: "\(directory)/\(name).sock")
            try await eventually("sesamed is offline") {
                let state = try await client.state()
                return state.connectivity == .offline
            }
            try await eventually("sesamed logged that it is ready") { daemon.stderr.contains("sesamed is ready") }
            if content == nil {
                #expect(
                    daemon.stderr.contains("Cannot read provisioning.token_file \(directory)/missing"),
                    "\(daemon.stderr)")
            }
            daemon.signal(SIGTERM)
            let status = try await daemon.waitForExit()
            #expect(status == 0, "exit \(status): \(daemon.stderr)")
            #expect(!daemon.stderr.contains("SECRET"), "\(daemon.stderr)")
        }
    }

    @Test(
        "a provisioning file that is a FIFO, a symbolic link, another user's or writable by others stops sesamed with 78 at once, naming the path",
        .timeLimit(.minutes(2)))
    func unsafeTokenFiles() async throws {
        let directory = try makeTemporaryDirectory("pu")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let real = directory + "/real-token"
        try "SECRET-CUSTOM-TOKEN\n".write(toFile: real, atomically: true, encoding: .utf8)
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        #expect(symlink(real, directory + "/link") == 0)
        try "SECRET-CUSTOM-TOKEN\n".write(toFile: directory + "/writable", atomically: true, encoding: .utf8)
        #expect(chmod(directory + "/writable", 0o666) == 0)
        var cases = [("fifo", "a FIFO"), ("link", "symbolic link"), ("writable", "writable by group or others")]
        // Another user's file: the tests run as root here (CI too), which may give a file away.
        if getuid() == 0 {
            try "SECRET-CUSTOM-TOKEN\n".write(toFile: directory + "/foreign", atomically: true, encoding: .utf8)
            #expect(chown(directory + "/foreign", 65534, 65534) == 0)
            cases.append(("foreign", "belongs to uid 65534"))
        }
        for (name, reason) in cases {
            let text =
                Self.firebase
                + "[socket]\npath = \"\(directory)/\(name).sock\"\n[provisioning]\ntoken_file = \"\(directory)/\(name)\"\n"
            try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
            let result = try await runCommand(
                BuiltBinaries.path("sesamed"),
                ["--config", directory + "/c.toml", "--state-dir", directory + "/state-" + name])
            #expect(result.status == 78, "\(name): \(result)")
            #expect(result.stderr.contains("\(directory)/\(name)"), "\(name): \(result.stderr)")
            #expect(result.stderr.contains(reason), "\(name): \(result.stderr)")
            #expect(!result.stderr.contains("SECRET"), "\(name): \(result.stderr)")
        }
    }
}
