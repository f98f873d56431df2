import Foundation
import SesameLocalAPI
import SesameTesting

#if canImport(Glibc)
import Glibc
#endif

/// The built `sesame-emulator`, on ephemeral ports, with helpers for its admin, emulator and
/// fault endpoints. With ``TestBackend/supabase`` it also serves its Supabase surface, and the
/// backend-neutral helpers (``faults(_:)``, ``calls()``, ``accountExists(_:)``, …) go there.
final class EmulatorProcess: Sendable {
    /// The emulator process itself (SesameTesting's launcher).
    let launched: EmulatorChild
    let backend: TestBackend
    private let slot: ProcessSlot
    static let project = EmulatorChild.project

    var child: ChildProcess { launched.child }
    var authPort: Int { launched.authPort }
    var databasePort: Int { launched.databasePort }
    var directory: String { launched.directory }
    /// The Supabase surface (``TestBackend/supabase`` only).
    var supabase: EmulatorChild.SupabaseEndpoint? { launched.supabase }

    private init(launched: EmulatorChild, backend: TestBackend, slot: ProcessSlot) {
        self.launched = launched
        self.backend = backend
        self.slot = slot
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
            let launched = try await EmulatorChild.start(supabase: backend == .supabase, arguments: extra)
            return EmulatorProcess(launched: launched, backend: backend, slot: slot)
        } catch {
            await slot.giveBack()
            throw error
        }
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
        await launched.stop()
        await slot.giveBack()
    }

    var authHost: String { launched.authHost }
    var databaseHost: String { launched.databaseHost }

    /// Sends an HTTP request to the auth port (or `port`) and returns status and JSON body.
    @discardableResult
    func request(
        _ method: String, _ path: String, json: JSONValue? = nil, bearerOwner: Bool = false, port: Int? = nil,
        headers: [String: String] = [:]
    ) async throws -> (Int, JSONValue) {
        var all = headers.sorted { $0.key < $1.key }
        if bearerOwner { all.append(("Authorization", "Bearer owner")) }
        return try await EmulatorHTTP().call(
            method, "http://127.0.0.1:\(port ?? authPort)\(path)", json: json, headers: all)
    }

    /// The port the backend's auth API is on: the Firebase auth port, or the Supabase port.
    var backendPort: Int { supabase?.port ?? authPort }
    private var backendBase: String { "http://127.0.0.1:\(backendPort)" }

    /// Sets fault-injection knobs (Sesame's extension) on the backend's auth port.
    func faults(_ settings: JSONValue) async throws {
        try await EmulatorHTTP().faults(backendBase, settings)
    }

    func clearFaults() async throws {
        try await EmulatorHTTP().clearFaults(backendBase)
    }

    /// Per-endpoint call counters of the backend's auth port.
    func calls() async throws -> [String: Int] {
        try await EmulatorHTTP().calls(backendBase)
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
