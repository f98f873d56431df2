import Foundation
import SesameCore
import SesameHTTP
import SesameLocalAPI
import SesameSupabase
import SesameTesting
import Testing

/// The Supabase adapter against the built `sesame-emulator`'s Supabase surface (started with
/// `--supabase-port 0` and read from the lines it prints, as the shared contract says).
struct SupabaseConformanceBackend: ProviderConformanceBackend {
    let emulator: EmulatorChild
    let url: String
    let anonKey: String
    let serviceRoleKey: String
    let provider: any RemoteAuthProvider
    let supabase: SupabaseAuthProvider
    let directory: SupabaseUsernameDirectory
    let helper: EmulatorHTTP

    /// Runs `body` against a fresh emulator started with `arguments` added.
    static func with(
        arguments: [String] = [], deleteFunction: String = "delete_user",
        _ body: (SupabaseConformanceBackend) async throws -> Void
    ) async throws {
        let emulator = try await EmulatorChild.start(supabase: true, arguments: arguments)
        let transport = AsyncHTTPClientTransport(connectTimeout: LoopbackTimeouts.connect, requestTimeout: .seconds(20))
        do {
            let endpoint = try #require(emulator.supabase)
            let (url, anonKey, serviceRoleKey) = (endpoint.url, endpoint.anonKey, endpoint.serviceRoleKey)
            let configuration = SupabaseConfiguration(url: url, anonKey: anonKey, deleteFunction: deleteFunction)
            let supabase = SupabaseAuthProvider(configuration: configuration, transport: transport)
            let backend = SupabaseConformanceBackend(
                emulator: emulator, url: url, anonKey: anonKey, serviceRoleKey: serviceRoleKey, provider: supabase,
                supabase: supabase,
                directory: SupabaseUsernameDirectory(configuration: configuration, transport: transport),
                helper: EmulatorHTTP(transport: transport))
            try await body(backend)
        } catch {
            await transport.shutdown()
            await emulator.stop()
            throw error
        }
        await transport.shutdown()
        await emulator.stop()
    }

    /// The newest message to `email`.
    func newestMessage(to email: String) async throws -> JSONValue {
        let messages = try await helper.supabaseMessages(url)
        guard let message = messages.last(where: { $0["email"]?.stringValue?.lowercased() == email.lowercased() })
        else { throw HarnessError("no email to \(email)") }
        return message
    }

    func emailSignInProof(for email: String) async throws -> EmailSignInProof {
        let message = try await newestMessage(to: email)
        for key in ["code", "otp", "token", "email_otp"] {
            if let code = message[key]?.stringValue, !code.isEmpty { return .code(code) }
        }
        throw HarnessError("the email to \(email) has no code")
    }

    func emailSignInLink(for email: String) async throws -> String {
        let message = try await newestMessage(to: email)
        for key in ["link", "action_link", "url"] {
            if let link = message[key]?.stringValue, !link.isEmpty { return link }
        }
        throw HarnessError("the email to \(email) has no link")
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
        try await helper.faults(url, ["failNext": .integer(Int64(count)), "failStatus": .integer(Int64(status))])
    }

    func clearFaults() async throws {
        try await helper.clearFaults(url)
    }

    /// The request counters of the emulator's fault endpoint (`calls`).
    func calls() async throws -> [String: Int] {
        try await helper.calls(url)
    }
}
