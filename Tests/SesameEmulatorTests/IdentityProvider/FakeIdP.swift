import AsyncHTTPClient
import Foundation
import SesameCore
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Talks to the emulator's fake identity provider of one provider id on one port, over HTTP,
/// the way an OAuth client and a person's browser do.
struct FakeIdP: Sendable {
    let emulator: TestEmulator
    /// `http://127.0.0.1:<port>` of the port to talk to.
    let origin: String
    let providerId: String

    init(_ emulator: TestEmulator, _ providerId: String, origin: String? = nil) {
        self.emulator = emulator
        self.providerId = providerId
        self.origin = origin ?? emulator.authBase
    }

    var base: String { "\(origin)/emulator/v1/idp/\(providerId)" }

    static let formHeaders = [("Content-Type", "application/x-www-form-urlencoded")]

    func form(_ path: String, _ fields: [(String, String)], headers: [(String, String)] = []) async throws -> HTTPAnswer
    {
        try await emulator.request(
            "POST", base + "/" + path, body: Array(PercentEncoding.form(fields).utf8),
            headers: Self.formHeaders + headers,
            client: TestEmulator.noRedirects)
    }

    func json(_ path: String, _ body: JSONValue) async throws -> HTTPAnswer {
        try await emulator.request(
            "POST", base + "/" + path, body: body.serialized(), headers: [("Content-Type", "application/json")])
    }

    func get(_ url: String) async throws -> HTTPAnswer {
        try await emulator.request("GET", url, client: TestEmulator.noRedirects)
    }

    /// `POST device/code`; expects 200.
    func startDevice(clientId: String = "tv-client", scope: String = "email profile") async throws -> JSONValue {
        let answer = try await form("device/code", [("client_id", clientId), ("scope", scope)])
        #expect(answer.status == 200, "\(answer.json.jsonString)")
        return answer.json
    }

    /// One device_code grant poll.
    func poll(_ start: JSONValue, clientId: String = "tv-client") async throws -> HTTPAnswer {
        try await form(
            "token",
            [
                ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                ("device_code", start["device_code"]?.stringValue ?? ""), ("client_id", clientId),
            ], headers: [("Accept", "application/json")])
    }

    /// The test hook `POST device/approve`.
    func approve(_ start: JSONValue, email: String, name: String? = nil, deny: Bool = false) async throws -> HTTPAnswer
    {
        var body: [String: JSONValue] = ["userCode": start["user_code"] ?? .null, "email": .string(email)]
        body["name"] = name.map(JSONValue.string)
        if deny { body["deny"] = true }
        return try await json("device/approve", .object(body))
    }

    /// Opens `authorizeURL` as a browser would, then submits its form as `email` (or denies):
    /// answers the 302 of `POST authorize`.
    func consent(
        _ authorizeURL: String, email: String, name: String = "", deny: Bool = false
    ) async throws
        -> HTTPAnswer
    {
        let page = try await get(authorizeURL)
        #expect(page.status == 200)
        let html = String(decoding: page.bytes, as: UTF8.self)
        #expect(html.contains("id=\"email\"") && html.contains("id=\"approve\"") && html.contains("id=\"deny\""))
        let query = URLComponents(string: authorizeURL)?.percentEncodedQuery ?? ""
        var fields = PercentEncoding.formFields(query)
        fields += [("email", email), ("name", name), ("action", deny ? "deny" : "approve")]
        let action = authorizeURL.split(separator: "?").first.map(String.init) ?? authorizeURL
        return try await emulator.request(
            "POST", action, body: Array(PercentEncoding.form(fields).utf8), headers: Self.formHeaders,
            client: TestEmulator.noRedirects)
    }

    /// The query parameters of a URL (a `Location`).
    static func query(_ url: String?) -> [String: String] {
        PercentEncoding.formDictionary(URLComponents(string: url ?? "")?.percentEncodedQuery ?? "")
    }

    /// The fragment parameters of a URL.
    static func fragment(_ url: String?) -> [String: String] {
        PercentEncoding.formDictionary(URLComponents(string: url ?? "")?.percentEncodedFragment ?? "")
    }

    /// RFC 7636 S256 challenge of `verifier`.
    static func challenge(_ verifier: String) -> String {
        let hex = Array(SupabaseHash.sha256Hex(verifier).utf8)
        let bytes = stride(from: 0, to: hex.count, by: 2).map {
            UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0
        }
        return Base64URL.encode(bytes)
    }
}
