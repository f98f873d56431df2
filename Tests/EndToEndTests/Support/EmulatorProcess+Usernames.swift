import Foundation
import SesameCore
import SesameLocalAPI
import SesameTesting

/// The username directory as the backend holds it: RTDB `/users/usernames` and `/users/details`
/// on Firebase, PostgREST `usernames` and `username_details` on Supabase.
extension EmulatorProcess {
    /// The uid that holds a username key (the normalised name: `nasa_fan`, `ann,lee`), or nil.
    func usernameOwner(_ key: String) async throws -> String? {
        guard backend == .supabase else { return try await firebaseDatabase("users/usernames/\(key)").stringValue }
        let rows = try await supabaseRows("usernames", "key", key)
        return rows.first?["uid"]?.stringValue
    }

    /// The published details of an account (`username`, `email`), nil fields when absent.
    func usernameDetails(_ uid: String) async throws -> (username: String?, email: String?) {
        let record: JSONValue?
        if backend == .supabase {
            record = try await supabaseRows("username_details", "uid", uid).first
        } else {
            record = try await firebaseDatabase("users/details/\(uid)")
        }
        return (record?["username"]?.stringValue, record?["email"]?.stringValue)
    }

    /// The value at a Realtime Database path, read directly from the emulator.
    func firebaseDatabase(_ path: String) async throws -> JSONValue {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        let (status, body) = try await request(
            "GET", "/\(encoded).json?ns=\(Self.project)-default-rtdb", port: databasePort)
        guard status == 200 else { throw HarnessError("GET \(path): \(status)") }
        return body
    }

    /// The rows of a PostgREST table where `column` equals `value` (service_role: no RLS).
    func supabaseRows(_ table: String, _ column: String, _ value: String) async throws -> [JSONValue] {
        let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
        let (status, body) = try await supabaseRequest("GET", "/rest/v1/\(table)?\(column)=eq.\(encoded)")
        guard status == 200 else { throw HarnessError("GET \(table): \(status) \(body.jsonString)") }
        return body.arrayValue ?? []
    }
}

extension EmulatorProcess {
    /// Changes an account's email as an administrator (or the project's own web app) would,
    /// behind the daemon's back.
    func changeEmailAtBackend(_ uid: String, to email: String) async throws {
        let (status, body): (Int, JSONValue)
        if backend == .supabase {
            (status, body) = try await supabaseRequest(
                "PUT", "/auth/v1/admin/users/\(uid)", json: ["email": .string(email), "email_confirm": true])
        } else {
            (status, body) = try await request(
                "POST", "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/accounts:update",
                json: ["localId": .string(uid), "email": .string(email)], bearerOwner: true)
        }
        guard status == 200 else { throw HarnessError("email change for \(uid): \(status) \(body.jsonString)") }
    }
}
