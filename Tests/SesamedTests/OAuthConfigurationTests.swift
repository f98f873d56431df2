import Foundation
import SesameOAuth
import SesameTesting
import Testing

@testable import sesamed

#if canImport(Glibc)
import Glibc
#endif

/// `[oauth."<providerId>"]` and `[provisioning]` in `sesamed.toml`, and where the device flow
/// client points.
@Suite("sesamed configuration: sign-in flows and provisioning")
struct OAuthConfigurationTests {
    static let firebase = "[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n"

    /// Loads `text` (after the Firebase basics) as the configuration file.
    static func load(_ text: String, environment: [String: String] = [:]) throws -> DaemonConfiguration {
        let directory = try makeTemporaryDirectory("oc")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try (firebase + text).write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        return try DaemonConfiguration.load(
            file: directory + "/c.toml", socket: nil, stateDirectory: directory + "/state", environment: environment,
            uid: 1000)
    }

    /// The configuration error of `text`.
    static func refusal(_ text: String, environment: [String: String] = [:]) -> String {
        do {
            _ = try load(text, environment: environment)
            return "accepted"
        } catch let error as ConfigurationError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test("provider tables: quoted ids, strings, and scopes as an array")
    func tables() throws {
        let configuration = try Self.load(
            """
            [oauth."google.com"]
            client_id = "tv.apps.googleusercontent.com"
            client_secret = "GOCSPX-secret"
            [oauth."oidc.corp"]
            client_id = "sesame"
            device_authorization_endpoint = "https://kc.corp/realms/r/protocol/openid-connect/auth/device"
            token_endpoint = "https://kc.corp/realms/r/protocol/openid-connect/token"
            scopes = ["openid", "email"]
            [oauth."github.com"]
            """)
        #expect(
            configuration.oauthProviders == [
                "google.com": OAuthProviderConfiguration(
                    clientId: "tv.apps.googleusercontent.com", clientSecret: "GOCSPX-secret"),
                "oidc.corp": OAuthProviderConfiguration(
                    clientId: "sesame",
                    deviceAuthorizationEndpoint: "https://kc.corp/realms/r/protocol/openid-connect/auth/device",
                    tokenEndpoint: "https://kc.corp/realms/r/protocol/openid-connect/token",
                    scopes: ["openid", "email"]),
                "github.com": OAuthProviderConfiguration(),
            ])
        #expect(try Self.load("").oauthProviders.isEmpty)
    }

    @Test(
        "bad provider tables are refused with a message naming the key, never the secret",
        arguments: [
            ("[oauth.\"google.com\"]\nclient_secret = \"SECRET\"\nclientid = \"x\"\n", "oauth.\"google.com\".clientid"),
            ("[oauth.\"google.com\"]\nclient_id = 7\n", "oauth.\"google.com\".client_id"),
            ("[oauth.\"google.com\"]\nscopes = \"openid email\"\n", "oauth.\"google.com\".scopes"),
            ("[oauth.\"google.com\"]\nscopes = [\"openid email\"]\n", "oauth.\"google.com\".scopes"),
            (
                "[oauth.\"oidc.x\"]\ndevice_authorization_endpoint = \"idp/device\"\ntoken_endpoint = \"https://idp/t\"\n",
                "oauth.\"oidc.x\".device_authorization_endpoint"
            ),
            ("[oauth.\"oidc.x\"]\ntoken_endpoint = \"https://idp/token\"\n", "device_authorization_endpoint"),
            ("[oauth]\nclient_id = \"x\"\n", "oauth.\"client_id\""),
            ("[oauth.\"bad id\"]\nclient_id = \"x\"\n", "oauth.\"bad id\""),
            ("[provisioning]\ntoken_file = \"./token\"\n", "provisioning.token_file"),
            ("[provisioning]\ntoken_file = 1\n", "provisioning.token_file"),
            ("[provisioning]\ntoken = \"x\"\n", "provisioning.token"),
        ])
    func refused(text: String, key: String) {
        let message = Self.refusal(text)
        #expect(message.contains(key), "\(message)")
        #expect(!message.contains("SECRET") && message != "accepted", "\(message)")
    }

    @Test("token_file: an absolute path as it is; a bare name is a systemd credential")
    func tokenFile() throws {
        #expect(try Self.load("").provisioningToken == .notConfigured)
        #expect(try Self.load("[provisioning]\ntoken_file = \"\"\n").provisioningToken == .notConfigured)
        #expect(
            try Self.load("[provisioning]\ntoken_file = \"/etc/fleet/token\"\n").provisioningToken
                == .file("/etc/fleet/token"))
        #expect(
            try Self.load(
                "[provisioning]\ntoken_file = \"enroll\"\n",
                environment: ["CREDENTIALS_DIRECTORY": "/run/credentials/sesamed.service"]
            )
            .provisioningToken == .file("/run/credentials/sesamed.service/enroll"))
        #expect(
            try Self.load("[provisioning]\ntoken_file = \"enroll\"\n").provisioningToken
                == .credentialWithoutDirectory("enroll"))
    }

    @Test("the token file is read once: trimmed, empty ignored, problems named by path only")
    func readToken() throws {
        let directory = try makeTemporaryDirectory("pt")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "  SECRET.TOKEN.1\n".write(toFile: directory + "/token", atomically: true, encoding: .utf8)
        try " \n".write(toFile: directory + "/empty", atomically: true, encoding: .utf8)
        try String(repeating: "x", count: ProvisioningToken.maximumSize + 1)
            .write(toFile: directory + "/huge", atomically: true, encoding: .utf8)
        #expect(ProvisioningToken.read(.file(directory + "/token")) == .token("SECRET.TOKEN.1"))
        #expect("\(ProvisioningToken.read(.file(directory + "/token")))" == "token (redacted)")
        #expect(ProvisioningToken.read(.file(directory + "/empty")) == .empty(path: directory + "/empty"))
        #expect(ProvisioningToken.read(.notConfigured) == .notConfigured)
        for (source, reason) in [
            (ProvisioningTokenSource.file(directory + "/missing"), "No such file"),
            (.file(directory + "/huge"), "KiB"),
            (.credentialWithoutDirectory("enroll"), "CREDENTIALS_DIRECTORY"),
        ] {
            guard case .unusable(let warning) = ProvisioningToken.read(source) else {
                Issue.record("\(source) is usable")
                continue
            }
            #expect(warning.contains(reason), "\(warning)")
            if case .file(let path) = source { #expect(warning.contains(path)) }
        }
    }

    @Test("a token file that is not a regular file of sesamed's user is refused, naming the path and what to do")
    func refuseUnsafeTokenFile() throws {
        let directory = try makeTemporaryDirectory("pr")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "SECRET.TOKEN.1\n".write(toFile: directory + "/token", atomically: true, encoding: .utf8)
        try "SECRET.TOKEN.2\n".write(toFile: directory + "/shared", atomically: true, encoding: .utf8)
        chmod(directory + "/shared", 0o662)
        symlink(directory + "/token", directory + "/link")
        mkfifo(directory + "/fifo", 0o600)
        for (path, reason) in [
            (directory, "a directory, not a regular file"), (directory + "/fifo", "a FIFO, not a regular file"),
            (directory + "/link", "a symbolic link"), (directory + "/shared", "writable by group or others"),
        ] {
            guard case .refused(let message) = ProvisioningToken.read(.file(path)) else {
                Issue.record("\(path) is not refused")
                continue
            }
            #expect(message.contains(path) && message.contains(reason), "\(message)")
            #expect(message.contains("provisioning.token_file"), "\(message)")
            #expect(!message.contains("SECRET"))
        }
    }

    @Test("the device flow client points at an emulator's fake providers when the backend is one")
    func emulatorBase() throws {
        #expect(BackendFactory.emulatorBase(try Self.load("")) == nil)
        #expect(
            BackendFactory.emulatorBase(
                try Self.load("", environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"]))
                == "http://127.0.0.1:9099")
        for (url, base) in [
            ("http://127.0.0.1:54321", "http://127.0.0.1:54321"),
            ("http://localhost:54321/", "http://localhost:54321/"),
            ("http://[::1]:54321", "http://[::1]:54321"), ("https://proj.supabase.co", nil),
        ] {
            let text = "[backend]\nprovider = \"supabase\"\n[supabase]\nurl = \"\(url)\"\nanon_key = \"a\"\n"
            #expect(BackendFactory.emulatorBase(try Self.load(text)) == base, "\(url)")
        }
    }
}
