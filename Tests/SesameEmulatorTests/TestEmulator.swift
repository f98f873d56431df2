import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Synchronization
import Testing

@testable import SesameEmulator

/// One HTTP answer, with the body parsed as JSON when it is JSON.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: [(String, String)]
    var bytes: [UInt8]

    var json: JSONValue { (try? JSONCoding.parse(bytes)) ?? .null }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// `error.message` of an Identity Toolkit error envelope.
    var errorMessage: String? { json["error"]?["message"]?.stringValue }
}

/// An emulator started in-process on ephemeral ports, plus HTTP helpers for tests.
struct TestEmulator: Sendable {
    let emulator: SesameEmulator
    let time: EmulatorTime

    var authBase: String { "http://127.0.0.1:\(emulator.authPort)" }
    var databaseBase: String { "http://127.0.0.1:\(emulator.databasePort)" }

    static let noRedirects = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    /// Runs `body` against a fresh emulator and stops it afterwards.
    static func with(
        importDirectory: String? = nil, recentLoginSeconds: Int = 0, _ body: (TestEmulator) async throws -> Void
    ) async throws {
        let time = EmulatorTime()
        var configuration = EmulatorConfiguration(importDirectory: importDirectory)
        configuration.recentLoginSeconds = recentLoginSeconds
        try await withEmulator(configuration, time: time) { emulator in
            try await body(TestEmulator(emulator: emulator, time: time))
        }
    }

    func request(
        _ method: String, _ url: String, body: [UInt8]? = nil, headers: [(String, String)] = [],
        client: HTTPClient = .shared, timeout: TimeAmount = .seconds(30)
    ) async throws -> HTTPAnswer {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: timeout)
        let buffer = try await response.body.collect(upTo: 8 << 20)
        return HTTPAnswer(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
            bytes: Array(buffer: buffer))
    }

    /// `POST /identitytoolkit.googleapis.com/v1/<operation>?key=fake` with a JSON body.
    func auth(
        _ operation: String, _ body: JSONValue, key: Bool = true, headers: [(String, String)] = []
    ) async throws -> HTTPAnswer {
        let url = "\(authBase)/identitytoolkit.googleapis.com/v1/\(operation)" + (key ? "?key=fake-api-key" : "")
        return try await request(
            "POST", url, body: body.serialized(), headers: [("Content-Type", "application/json")] + headers)
    }

    /// An admin call: `POST …/v1/projects/demo-project/<operation>` with `Authorization: Bearer owner`.
    func admin(_ operation: String, _ body: JSONValue) async throws -> HTTPAnswer {
        let url = "\(authBase)/identitytoolkit.googleapis.com/v1/projects/demo-project/\(operation)"
        return try await request(
            "POST", url, body: body.serialized(),
            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer owner")])
    }

    /// `POST /securetoken.googleapis.com/v1/token` with a form body.
    func refresh(_ refreshToken: String) async throws -> HTTPAnswer {
        let form = "grant_type=refresh_token&refresh_token=\(PercentEncoding.queryValue(refreshToken))"
        return try await request(
            "POST", "\(authBase)/securetoken.googleapis.com/v1/token?key=fake-api-key", body: Array(form.utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")])
    }

    /// A database request on `path` (e.g. `/users/a.json`) in namespace `ns`.
    func database(
        _ method: String, _ path: String, _ body: JSONValue? = nil, query: String = "ns=test",
        headers: [(String, String)] = []
    ) async throws -> HTTPAnswer {
        try await request(method, "\(databaseBase)\(path)?\(query)", body: body?.serialized(), headers: headers)
    }

    /// Signs up an anonymous user; returns the response fields.
    func signUpAnonymously() async throws -> JSONValue {
        let answer = try await auth("accounts:signUp", ["returnSecureToken": true])
        #expect(answer.status == 200)
        return answer.json
    }

    /// Signs up with email and password; returns the response fields.
    func signUp(email: String, password: String = "secret-pw") async throws -> JSONValue {
        let answer = try await auth(
            "accounts:signUp", ["email": .string(email), "password": .string(password), "returnSecureToken": true])
        #expect(answer.status == 200, "\(answer.json.jsonString)")
        return answer.json
    }

    /// The newest pending code of `type` for `email`, read from the emulator's listing.
    func oobCode(for email: String, type: String = "EMAIL_SIGNIN") async throws -> String? {
        let answer = try await request("GET", "\(authBase)/emulator/v1/projects/demo-project/oobCodes")
        let codes = answer.json["oobCodes"]?.arrayValue ?? []
        return codes.last { $0["email"]?.stringValue == email.lowercased() && $0["requestType"]?.stringValue == type }?[
            "oobCode"]?.stringValue
    }

    /// Sends an EMAIL_SIGNIN code to `email` and returns it.
    func sendSignInLink(to email: String) async throws -> String {
        let sent = try await auth(
            "accounts:sendOobCode",
            [
                "requestType": "EMAIL_SIGNIN", "email": .string(email), "continueUrl": "https://app.example/finish",
                "canHandleCodeInApp": true,
            ])
        #expect(sent.status == 200)
        return try #require(try await oobCode(for: email))
    }

    /// The claims of an emulator ID token.
    static func claims(_ idToken: JSONValue?) -> JSONValue {
        guard let token = idToken?.stringValue, let (_, payload) = TokenFactory.decodeJWT(token) else { return .null }
        return .object(payload)
    }

    /// A fake IdP `postBody` carrying `claims` as a strict-JSON id_token.
    static func idpPostBody(provider: String = "google.com", _ claims: JSONValue) -> String {
        "providerId=\(provider)&id_token=\(PercentEncoding.queryValue(claims.jsonString))"
    }
}
