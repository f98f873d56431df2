import Foundation
import SesameLocalAPI

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The built `sesame-emulator`, on ephemeral ports, with helpers for its admin, emulator and
/// fault endpoints. With ``TestBackend/supabase`` it also serves its Supabase surface, and the
/// backend-neutral helpers (``faults(_:)``, ``calls()``, ``accountExists(_:)``, …) go there.
final class EmulatorProcess: Sendable {
    let child: ChildProcess
    let authPort: Int
    let databasePort: Int
    let directory: String
    let backend: TestBackend
    /// The Supabase surface (``TestBackend/supabase`` only).
    let supabase: SupabaseEndpoint?
    private let slot: ProcessSlot
    static let project = "demo-project"

    /// Where the emulator serves Supabase, and the keys it printed.
    struct SupabaseEndpoint: Sendable {
        var url: String
        var port: Int
        var anonKey: String
        var serviceRoleKey: String
    }

    private init(
        child: ChildProcess, authPort: Int, databasePort: Int, directory: String, backend: TestBackend,
        supabase: SupabaseEndpoint?, slot: ProcessSlot
    ) {
        self.slot = slot
        self.child = child
        self.authPort = authPort
        self.databasePort = databasePort
        self.directory = directory
        self.backend = backend
        self.supabase = supabase
    }

    /// - Parameters:
    ///   - arguments: further command-line options (`--supabase-jwt-expiry 60`).
    ///   - slots: the pool whose slot this emulator holds until ``stop()``.
    static func start(
        backend: TestBackend = .firebase, arguments extra: [String] = [], slots: ProcessSlots = .emulators
    ) async throws -> EmulatorProcess {
        await slots.acquire()
        let slot = ProcessSlot(of: slots)
        do {
            return try await launch(backend: backend, arguments: extra, slot: slot)
        } catch {
            await slot.giveBack()
            throw error
        }
    }

    private static func launch(
        backend: TestBackend, arguments extra: [String], slot: ProcessSlot
    ) async throws
        -> EmulatorProcess
    {
        let directory = try makeTemporaryDirectory("emu")
        var arguments = ["--auth-port", "0", "--database-port", "0", "--project", project]
        if backend == .supabase { arguments += ["--supabase-port", "0"] }
        arguments += extra
        let child = try ChildProcess(Binaries.path("sesame-emulator"), arguments, logPrefix: directory + "/emulator")
        var auth: Int?, database: Int?
        var printed: [String: String] = [:]
        let prefixes = [
            "url": "sesame-emulator: supabase listening on ", "anon": "sesame-emulator: supabase anon key ",
            "service": "sesame-emulator: supabase service_role key ",
        ]
        do {
            try await waitUntil("the emulator prints its ports") {
                for line in child.stdout.split(separator: "\n") {
                    for (name, prefix) in prefixes where line.hasPrefix(prefix) {
                        printed[name] = String(line.dropFirst(prefix.count))
                    }
                    if line.hasPrefix("sesame-emulator: supabase") { continue }
                    let port = line.split(separator: ":").last.flatMap { Int($0) }
                    if line.contains("auth listening") { auth = port }
                    if line.contains("database listening") { database = port }
                }
                return auth != nil && database != nil && (backend == .firebase || printed.count == prefixes.count)
            }
        } catch {
            child.signal(SIGKILL)
            throw HarnessError("\(error); emulator stderr: \(child.stderr)")
        }
        var supabase: SupabaseEndpoint?
        if backend == .supabase, let url = printed["url"],
            let port = url.split(separator: ":").last.flatMap({ Int($0) })
        {
            supabase = SupabaseEndpoint(
                url: url, port: port, anonKey: printed["anon"]!, serviceRoleKey: printed["service"]!)
        }
        return EmulatorProcess(
            child: child, authPort: auth!, databasePort: database!, directory: directory, backend: backend,
            supabase: supabase,
            slot: slot)
    }

    /// An emulator whose ID tokens live `seconds` (Firebase: the `tokenTtlSeconds` fault, which
    /// ``clearFaults()`` resets; Supabase: `--supabase-jwt-expiry`).
    static func start(backend: TestBackend, tokenLifetime seconds: Int) async throws -> EmulatorProcess {
        if backend == .supabase {
            return try await start(backend: backend, arguments: ["--supabase-jwt-expiry", "\(seconds)"])
        }
        let emulator = try await start(backend: backend)
        try await emulator.faults(["tokenTtlSeconds": .integer(Int64(seconds))])
        return emulator
    }

    func stop() async {
        child.signal(SIGTERM)
        _ = try? await child.waitForExit()
        try? FileManager.default.removeItem(atPath: directory)
        await slot.giveBack()
    }

    var authHost: String { "127.0.0.1:\(authPort)" }
    var databaseHost: String { "127.0.0.1:\(databasePort)" }

    /// Sends an HTTP request to the auth port and returns status and JSON body.
    @discardableResult
    func request(
        _ method: String, _ path: String, json: JSONValue? = nil, bearerOwner: Bool = false, port: Int? = nil,
        headers: [String: String] = [:]
    ) async throws -> (Int, JSONValue) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port ?? authPort)\(path)")!)
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.serialized())
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if bearerOwner { request.setValue("Bearer owner", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let body = data.isEmpty ? JSONValue.null : ((try? JSONValue.parse(Array(data))) ?? .null)
        return (status, body)
    }

    /// The port the backend's auth API is on: the Firebase auth port, or the Supabase port.
    var backendPort: Int { supabase?.port ?? authPort }

    /// Sets fault-injection knobs (Sesame's extension) on the backend's auth port.
    func faults(_ settings: JSONValue) async throws {
        try await request("POST", "/sesame/v1/faults", json: settings, port: backendPort)
    }

    func clearFaults() async throws {
        try await request("DELETE", "/sesame/v1/faults", port: backendPort)
    }

    /// Per-endpoint call counters of the backend's auth port.
    func calls() async throws -> [String: Int] {
        let (_, body) = try await request("GET", "/sesame/v1/faults", port: backendPort)
        var counts: [String: Int] = [:]
        for (key, value) in body["calls"]?.objectValue ?? [:] { counts[key] = Int(value.int64Value ?? 0) }
        return counts
    }

    /// Answers the backend's auth port has handled but holds back right now (`answerDelayMs`).
    func answersHeld() async throws -> Int {
        let (_, body) = try await request("GET", "/sesame/v1/faults", port: backendPort)
        return Int(body["answersHeld"]?.int64Value ?? 0)
    }

    /// The refresh-token grants the backend has received (Secure Token calls on Firebase,
    /// `/token?grant_type=refresh_token` on Supabase). ``clearFaults()`` resets it.
    func refreshCount() async throws -> Int {
        try await calls()[backend == .supabase ? "token:refresh_token" : "token"] ?? 0
    }

    /// The `pathPrefix` of the backend's refresh endpoint, for faults that hit refreshes only.
    var refreshPathPrefix: String { backend == .supabase ? "/auth/v1/token" : "/securetoken.googleapis.com" }

    /// Whether an account exists, through the admin API.
    func accountExists(_ uid: String) async throws -> Bool {
        if backend == .supabase { return try await supabaseUser(uid) != nil }
        return try await account(uid) != nil
    }

    /// The account record, reduced to what tests compare; nil when there is none.
    func accountInfo(_ uid: String) async throws -> BackendAccount? {
        if backend == .supabase { return try await supabaseUser(uid).map(Self.backendAccount(supabaseUser:)) }
        return try await account(uid).map(Self.backendAccount(firebaseRecord:))
    }

    /// Deletes an account as an administrator would.
    func deleteAccount(_ uid: String) async throws {
        if backend == .supabase { return try await supabaseDeleteUser(uid) }
        try await firebaseDeleteAccount(uid)
    }

    /// Creates an email/password account directly at the backend; returns its uid.
    func createAccount(email: String, password: String) async throws -> String {
        if backend == .supabase { return try await supabaseSignUp(email: email, password: password) }
        return try await firebaseSignUp(email: email, password: password)
    }

    /// The newest sign-in link mailed to an address (Firebase: the oob link; Supabase: the
    /// magic link), or nil.
    func signInLink(email: String) async throws -> String? {
        if backend == .supabase { return try await supabaseMessage(email: email)?["link"]?.stringValue }
        return try await oobLink(email: email)
    }

    /// A federated ID token the emulator accepts for `signInWithIdp`/`id_token` on this backend
    /// (neither checks signatures), with the `sub` and, when given, the email claims.
    func federatedIdToken(sub: String, email: String? = nil, verified: Bool = false) -> String {
        var object: [String: JSONValue] = ["sub": .string(sub)]
        if let email {
            object["email"] = .string(email)
            object["email_verified"] = .bool(verified)
        }
        let claims = JSONValue.object(object).jsonString
        guard backend == .supabase else { return claims }
        return Self.base64URL(#"{"alg":"RS256","typ":"JWT"}"#) + "." + Self.base64URL(claims) + ".c2lnbmF0dXJl"
    }

    /// Signs in with a federated identity (provider `google.com`) directly at the backend, as
    /// another device would: creates the identity's account if new. Returns its uid.
    func createFederatedAccount(sub: String, email: String? = nil, verified: Bool = false) async throws -> String {
        let token = federatedIdToken(sub: sub, email: email, verified: verified)
        if backend == .supabase { return try await supabaseIdTokenSignIn(token) }
        return try await firebaseIdpSignIn(token)
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
