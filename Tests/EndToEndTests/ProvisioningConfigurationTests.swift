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
        "a FIFO, a link, another user's or a group-writable token file stops sesamed at start with 78, naming the path"
    )
    func unsafeTokenFile() async throws {
        let directory = try makeTemporaryDirectory("pu")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "SECRET-CUSTOM-TOKEN\n".write(toFile: directory + "/real", atomically: true, encoding: .utf8)
        mkfifo(directory + "/fifo", 0o600)
        symlink(directory + "/real", directory + "/link")
        try "SECRET-CUSTOM-TOKEN\n".write(toFile: directory + "/shared", atomically: true, encoding: .utf8)
        chmod(directory + "/shared", 0o666)
        var cases = [
            ("fifo", "is a FIFO, not a regular file"), ("link", "is a symbolic link"),
            ("shared", "is writable by group or others"),
        ]
        if geteuid() == 0 {  // another user's file: only root can give one away
            try "SECRET-CUSTOM-TOKEN\n".write(toFile: directory + "/foreign", atomically: true, encoding: .utf8)
            chown(directory + "/foreign", 65534, 65534)
            cases.append(("foreign", "belongs to uid 65534, not to sesamed's user"))
        }
        for (name, reason) in cases {
            let text =
                Self.firebase
                + "[socket]\npath = \"\(directory)/\(name).sock\"\n[provisioning]\ntoken_file = \"\(directory)/\(name)\"\n"
            try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
            // A FIFO nobody writes to must not hang start-up: runCommand fails after its timeout.
            let result = try await runCommand(
                BuiltBinaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"])
            #expect(result.status == 78, "\(name): \(result)")
            #expect(
                result.stderr.contains("provisioning.token_file) \(directory)/\(name) \(reason)"), "\(result.stderr)")
            #expect(!result.stderr.contains("SECRET"), "\(result.stderr)")
        }
    }
}
