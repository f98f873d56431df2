import Foundation
import SesameLocalAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The built `sesame-emulator`, on ephemeral ports, with helpers for its admin, emulator and
/// fault endpoints.
final class EmulatorProcess: Sendable {
    let child: ChildProcess
    let authPort: Int
    let databasePort: Int
    let directory: String
    static let project = "demo-project"

    private init(child: ChildProcess, authPort: Int, databasePort: Int, directory: String) {
        self.child = child
        self.authPort = authPort
        self.databasePort = databasePort
        self.directory = directory
    }

    static func start() async throws -> EmulatorProcess {
        let directory = try makeTemporaryDirectory("emu")
        let child = try ChildProcess(
            Binaries.path("sesame-emulator"),
            ["--auth-port", "0", "--database-port", "0", "--project", project], logPrefix: directory + "/emulator")
        var auth: Int?, database: Int?
        try await waitUntil("the emulator prints its ports") {
            for line in child.stdout.split(separator: "\n") {
                let port = line.split(separator: ":").last.flatMap { Int($0) }
                if line.contains("auth listening") { auth = port }
                if line.contains("database listening") { database = port }
            }
            return auth != nil && database != nil
        }
        return EmulatorProcess(child: child, authPort: auth!, databasePort: database!, directory: directory)
    }

    func stop() async {
        child.signal(SIGTERM)
        _ = try? await child.waitForExit()
        try? FileManager.default.removeItem(atPath: directory)
    }

    var authHost: String { "127.0.0.1:\(authPort)" }
    var databaseHost: String { "127.0.0.1:\(databasePort)" }

    /// Sends an HTTP request to the auth port and returns status and JSON body.
    @discardableResult
    func request(
        _ method: String, _ path: String, json: JSONValue? = nil, bearerOwner: Bool = false, port: Int? = nil
    ) async throws -> (Int, JSONValue) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port ?? authPort)\(path)")!)
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.serialized())
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if bearerOwner { request.setValue("Bearer owner", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let body = data.isEmpty ? JSONValue.null : ((try? JSONValue.parse(Array(data))) ?? .null)
        return (status, body)
    }

    /// Sets fault-injection knobs (Sesame's extension) on the auth port.
    func faults(_ settings: JSONValue) async throws {
        try await request("POST", "/sesame/v1/faults", json: settings)
    }

    func clearFaults() async throws {
        try await request("DELETE", "/sesame/v1/faults")
    }

    /// Per-endpoint call counters of the auth port.
    func calls() async throws -> [String: Int] {
        let (_, body) = try await request("GET", "/sesame/v1/faults")
        var counts: [String: Int] = [:]
        for (key, value) in body["calls"]?.objectValue ?? [:] { counts[key] = Int(value.int64Value ?? 0) }
        return counts
    }

    /// Whether an account exists, through the admin API.
    func accountExists(_ uid: String) async throws -> Bool {
        let (_, body) = try await request(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/accounts:lookup",
            json: ["localId": [.string(uid)]], bearerOwner: true)
        return !(body["users"]?.arrayValue?.isEmpty ?? true)
    }

    /// The account record, through the admin API.
    func account(_ uid: String) async throws -> JSONValue? {
        let (_, body) = try await request(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/accounts:lookup",
            json: ["localId": [.string(uid)]], bearerOwner: true)
        return body["users"]?.arrayValue?.first
    }

    /// Deletes an account as an administrator would.
    func deleteAccount(_ uid: String) async throws {
        try await request(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/accounts:delete",
            json: ["localId": .string(uid)], bearerOwner: true)
    }

    /// Creates an email/password account directly at the backend; returns its uid.
    func createAccount(email: String, password: String) async throws -> String {
        let (_, body) = try await request(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test",
            json: ["email": .string(email), "password": .string(password), "returnSecureToken": true])
        guard let uid = body["localId"]?.stringValue else { throw HarnessError("sign-up failed: \(body.jsonString)") }
        return uid
    }

    /// The newest out-of-band link sent to an address, of a request type.
    func oobLink(email: String, requestType: String = "EMAIL_SIGNIN") async throws -> String? {
        let (_, body) = try await request("GET", "/emulator/v1/projects/\(Self.project)/oobCodes")
        return body["oobCodes"]?.arrayValue?.last {
            $0["email"]?.stringValue == email.lowercased() && $0["requestType"]?.stringValue == requestType
        }?["oobLink"]?.stringValue
    }
}
