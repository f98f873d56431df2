import Foundation
import SesameLocalAPI
import SesameTesting

/// The Supabase side of ``EmulatorProcess``: GoTrue's admin API (with the service_role key),
/// sign-ups with the anon key, and the emulator's mailbox.
extension EmulatorProcess {
    /// A request to the Supabase port with the service_role key (as `apikey` and bearer), or
    /// with the anon key only.
    @discardableResult
    func supabaseRequest(
        _ method: String, _ path: String, json: JSONValue? = nil, admin: Bool = true
    ) async throws -> (
        Int, JSONValue
    ) {
        guard let supabase else { throw HarnessError("this emulator was started without its Supabase surface") }
        var headers = ["apikey": admin ? supabase.serviceRoleKey : supabase.anonKey]
        if admin { headers["Authorization"] = "Bearer " + supabase.serviceRoleKey }
        return try await request(method, path, json: json, port: supabase.port, headers: headers)
    }

    /// GoTrue's admin user record, or nil when there is none.
    func supabaseUser(_ uid: String) async throws -> JSONValue? {
        let (status, body) = try await supabaseRequest("GET", "/auth/v1/admin/users/\(uid)")
        if status == 404 { return nil }
        guard status == 200 else { throw HarnessError("admin/users/\(uid): \(status) \(body.jsonString)") }
        return body
    }

    func supabaseDeleteUser(_ uid: String) async throws {
        let (status, body) = try await supabaseRequest("DELETE", "/auth/v1/admin/users/\(uid)")
        guard status == 200 || status == 204 else { throw HarnessError("delete \(uid): \(status) \(body.jsonString)") }
    }

    func supabaseSignUp(email: String, password: String) async throws -> String {
        let (_, body) = try await supabaseRequest(
            "POST", "/auth/v1/signup", json: ["email": .string(email), "password": .string(password)], admin: false)
        guard let uid = body["user"]?["id"]?.stringValue ?? body["id"]?.stringValue else {
            throw HarnessError("sign-up failed: \(body.jsonString)")
        }
        return uid
    }

    func supabaseIdTokenSignIn(_ idToken: String) async throws -> String {
        let (_, body) = try await supabaseRequest(
            "POST", "/auth/v1/token?grant_type=id_token", json: ["provider": "google", "id_token": .string(idToken)],
            admin: false)
        guard let uid = body["user"]?["id"]?.stringValue else {
            throw HarnessError("id_token failed: \(body.jsonString)")
        }
        return uid
    }

    /// The mails the emulator "sent", oldest first (`type`, `email`, `otp`, `link`, …).
    func supabaseMessages() async throws -> [JSONValue] {
        guard let supabase else { throw HarnessError("this emulator was started without its Supabase surface") }
        return try await EmulatorHTTP().supabaseMessages(supabase.url)
    }

    /// The newest mail to an address.
    func supabaseMessage(email: String) async throws -> JSONValue? {
        try await supabaseMessages().last { $0["email"]?.stringValue == email.lowercased() }
    }

    /// The one-time code of the newest mail to an address (Supabase only).
    func oneTimeCode(email: String) async throws -> String? {
        try await supabaseMessage(email: email)?["otp"]?.stringValue
    }

    /// A GoTrue admin user as a ``BackendAccount``; provider ids in the wire protocol's names.
    static func backendAccount(supabaseUser user: JSONValue) -> BackendAccount {
        let names = ["email": "password", "google": "google.com", "apple": "apple.com", "github": "github.com"]
        let raw = user["app_metadata"]?["providers"]?.arrayValue?.compactMap { $0.stringValue } ?? []
        let providers = raw.filter { $0 != "anonymous" }.map { names[$0] ?? $0 }
        let email = user["email"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        return BackendAccount(
            email: email, providers: providers.sorted(), isAnonymous: user["is_anonymous"]?.boolValue ?? false)
    }
}
