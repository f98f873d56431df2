import Foundation
import NIOHTTP1
import SesameCore
import SesameHTTP
import SesameSupabase
import SesameTesting

/// The Supabase adapter against the built `sesame-emulator`'s Supabase surface (started with
/// `--supabase-port 0` and read from the lines it prints, as the shared contract says).
struct SupabaseConformanceBackend: ProviderConformanceBackend {
    let emulator: EmulatorBinary
    let url: String
    let anonKey: String
    let serviceRoleKey: String
    let provider: any RemoteAuthProvider
    let supabase: SupabaseAuthProvider
    let directory: SupabaseUsernameDirectory
    let helper: HTTPHelper

    /// Runs `body` against a fresh emulator started with `arguments` added.
    static func with(
        arguments: [String] = [], deleteFunction: String = "delete_user",
        _ body: (SupabaseConformanceBackend) async throws -> Void
    ) async throws {
        let emulator = try EmulatorBinary(
            arguments: [
                "--auth-port", "0", "--database-port", "0", "--project", "demo-project", "--supabase-port", "0",
            ]
                + arguments)
        let transport = AsyncHTTPClientTransport(connectTimeout: .seconds(2), requestTimeout: .seconds(20))
        do {
            let url = try await emulator.line(after: "sesame-emulator: supabase listening on ")
            let anonKey = try await emulator.line(after: "sesame-emulator: supabase anon key ")
            let serviceRoleKey = try await emulator.line(after: "sesame-emulator: supabase service_role key ")
            let configuration = SupabaseConfiguration(url: url, anonKey: anonKey, deleteFunction: deleteFunction)
            let supabase = SupabaseAuthProvider(configuration: configuration, transport: transport)
            let backend = SupabaseConformanceBackend(
                emulator: emulator, url: url, anonKey: anonKey, serviceRoleKey: serviceRoleKey, provider: supabase,
                supabase: supabase,
                directory: SupabaseUsernameDirectory(configuration: configuration, transport: transport),
                helper: HTTPHelper(transport: transport))
            try await body(backend)
        } catch {
            await transport.shutdown()
            await emulator.stop()
            throw error
        }
        await transport.shutdown()
        await emulator.stop()
    }

    /// The emails the emulator "sent", oldest first (`GET /sesame/v1/supabase/messages`).
    func messages() async throws -> [[String: Any]] {
        let (_, body) = try await helper.call(.GET, url + "/sesame/v1/supabase/messages")
        if let list = body as? [[String: Any]] { return list }
        if let object = body as? [String: Any] {
            for value in object.values { if let list = value as? [[String: Any]] { return list } }
        }
        return []
    }

    /// The newest message to `email`.
    func newestMessage(to email: String) async throws -> [String: Any] {
        guard
            let message = try await messages().last(where: {
                ($0["email"] as? String)?.lowercased() == email.lowercased()
            })
        else { throw EmulatorBinaryError("no email to \(email)") }
        return message
    }

    func emailSignInProof(for email: String) async throws -> EmailSignInProof {
        let message = try await newestMessage(to: email)
        for key in ["code", "otp", "token", "email_otp"] {
            if let code = message[key] as? String, !code.isEmpty { return .code(code) }
        }
        throw EmulatorBinaryError("the email to \(email) has no code")
    }

    func emailSignInLink(for email: String) async throws -> String {
        let message = try await newestMessage(to: email)
        for key in ["link", "action_link", "url"] {
            if let link = message[key] as? String, !link.isEmpty { return link }
        }
        throw EmulatorBinaryError("the email to \(email) has no link")
    }

    /// The emulator reads an ID token's claims without checking its signature.
    func federatedCredential(subject: String, email: String) -> FederatedCredential? {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let claims =
            #"{"iss":"https://accounts.google.com","sub":"\#(subject)","email":"\#(email)","email_verified":true}"#
        let token = encode(#"{"alg":"RS256","typ":"JWT"}"#) + "." + encode(claims) + ".c2ln"
        return FederatedCredential(providerId: "google.com", idToken: token, accessToken: nil)
    }

    func failNext(_ count: Int, status: Int) async throws {
        try await helper.faults(url, #"{"failNext":\#(count),"failStatus":\#(status)}"#)
    }

    func clearFaults() async throws {
        try await helper.call(.DELETE, url + "/sesame/v1/faults")
    }

    /// The request counters of the emulator's fault endpoint (`calls`).
    func calls() async throws -> [String: Int] {
        let (_, body) = try await helper.call(.GET, url + "/sesame/v1/faults")
        return ((body as? [String: Any])?["calls"] as? [String: Any] ?? [:]).compactMapValues {
            ($0 as? NSNumber)?.intValue
        }
    }
}
