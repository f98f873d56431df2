import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// An emulator with the Supabase surface on an ephemeral port, plus helpers speaking to it over
/// loopback HTTP the way supabase-js/-py do (`apikey`, `Authorization: Bearer`).
struct SupabaseTestEmulator: Sendable {
    let emulator: SesameEmulator
    let time: EmulatorTime
    let base: String
    let anonKey: String
    let serviceKey: String

    /// Runs `body` against a fresh emulator (default: `supabase start`'s settings) and stops it afterwards.
    static func with(
        _ configuration: SupabaseEmulatorConfiguration = SupabaseEmulatorConfiguration(port: 0),
        _ body: (SupabaseTestEmulator) async throws -> Void
    ) async throws {
        let time = EmulatorTime()
        try await withEmulator(EmulatorConfiguration(supabase: configuration), time: time) { emulator in
            try await body(
                SupabaseTestEmulator(
                    emulator: emulator, time: time, base: "http://127.0.0.1:\(try #require(emulator.supabasePort))",
                    anonKey: try #require(emulator.supabaseAnonKey),
                    serviceKey: try #require(emulator.supabaseServiceRoleKey)))
        }
    }

    /// One request to `path` (e.g. `/auth/v1/signup`) with the anon `apikey` unless `apikey` says otherwise.
    func call(
        _ method: String, _ path: String, _ body: JSONValue? = nil, bearer: String? = nil, versioned: Bool = false,
        apikey: String? = "", headers: [(String, String)] = []
    ) async throws -> HTTPAnswer {
        var all = headers
        if let key = apikey { all.append(("apikey", key.isEmpty ? anonKey : key)) }
        if let bearer { all.append(("Authorization", "Bearer \(bearer)")) }
        if versioned { all.append(("X-Supabase-Api-Version", "2024-01-01")) }
        if body != nil { all.append(("Content-Type", "application/json")) }
        return try await TestEmulator(emulator: emulator, time: time).request(
            method, base + path, body: body?.serialized(), headers: all, client: TestEmulator.noRedirects)
    }

    /// An admin call with the service_role key as bearer and apikey.
    func admin(_ method: String, _ path: String, _ body: JSONValue? = nil) async throws -> HTTPAnswer {
        try await call(method, "/auth/v1/admin/" + path, body, bearer: serviceKey, apikey: serviceKey)
    }

    /// A PostgREST call; `bearer` defaults to the anon key, as supabase-js sends it.
    func rest(
        _ method: String, _ pathAndQuery: String, _ body: JSONValue? = nil, bearer: String? = nil, prefer: String? = nil
    ) async throws -> HTTPAnswer {
        try await call(
            method, "/rest/v1/" + pathAndQuery, body, bearer: bearer ?? anonKey,
            headers: prefer.map { [("Prefer", $0)] } ?? [])
    }

    /// Signs up an anonymous user; returns the session.
    func anonymousSession() async throws -> JSONValue {
        let answer = try await call("POST", "/auth/v1/signup", [:])
        #expect(answer.status == 200, "\(answer.json.jsonString)")
        return answer.json
    }

    /// Signs up `email` (autoconfirm on); returns the session.
    func passwordSession(_ email: String, password: String = "secret-pw") async throws -> JSONValue {
        let answer = try await call(
            "POST", "/auth/v1/signup", ["email": .string(email), "password": .string(password)])
        #expect(answer.status == 200, "\(answer.json.jsonString)")
        return answer.json
    }

    func refresh(_ token: String?) async throws -> HTTPAnswer {
        try await call(
            "POST", "/auth/v1/token?grant_type=refresh_token", ["refresh_token": token.map(JSONValue.string) ?? .null])
    }

    /// The messages the emulator "mailed".
    func messages() async throws -> [JSONValue] {
        try await call("GET", "/sesame/v1/supabase/messages", apikey: nil).json["messages"]?.arrayValue ?? []
    }

    /// The claims of a JWT, without checking it.
    static func claims(_ token: JSONValue?) -> [String: JSONValue] {
        token?.stringValue.flatMap { TokenFactory.decodeJWT($0)?.payload } ?? [:]
    }
}

extension HTTPAnswer {
    /// GoTrue's legacy `error_code`, or the 2024-01-01 shape's `code`.
    var goTrueCode: String? { json["error_code"]?.stringValue ?? json["code"]?.stringValue }
}

extension JSONValue {
    var text: String? { stringValue }
}
