import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// A backend column of the fault matrix: where each flow's call goes on it, and a look at its
/// side of an account (through the harness's backend-neutral helpers), independent of the
/// daemon.
struct MatrixBackend: Sendable {
    let emulator: EmulatorProcess

    /// The port and path prefix of the call a flow's fault goes on.
    func target(of flow: MatrixFlow) -> (port: Int, pathPrefix: String) {
        if let supabase = emulator.supabase {
            let path: String
            switch flow {
            case .anonymousStart, .signOut: path = "/auth/v1/signup"
            case .createAccount: path = "/auth/v1/user"
            case .refresh, .signInAndMerge, .federated: path = "/auth/v1/token"
            case .emailLink: path = "/auth/v1/verify"
            case .serverSignOut: path = "/auth/v1/logout"
            case .deleteAccount: path = "/rest/v1/rpc/delete_user"
            case .usernameClaim: path = "/rest/v1/usernames"
            }
            return (supabase.port, path)
        }
        let identity = "/identitytoolkit.googleapis.com/v1/"
        switch flow {
        case .anonymousStart, .createAccount, .signOut, .serverSignOut:
            return (emulator.authPort, identity + "accounts:signUp")
        case .refresh: return (emulator.authPort, "/securetoken.googleapis.com")
        case .signInAndMerge: return (emulator.authPort, identity + "accounts:signInWithPassword")
        case .emailLink: return (emulator.authPort, identity + "accounts:signInWithEmailLink")
        case .federated: return (emulator.authPort, identity + "accounts:signInWithIdp")
        case .deleteAccount: return (emulator.authPort, identity + "accounts:delete")
        case .usernameClaim: return (emulator.databasePort, "/users/usernames")
        }
    }

    /// Every port the emulator serves.
    private var ports: [Int] {
        [emulator.authPort, emulator.databasePort] + (emulator.supabase.map { [$0.port] } ?? [])
    }

    /// Puts `fault` on `flow`'s call. A clock skew applies to every port (the whole backend's
    /// clock is off).
    func inject(_ fault: MatrixFault, on flow: MatrixFlow) async throws {
        let target = target(of: flow)
        for port in fault.isSkew ? ports : [target.port] {
            let (status, body) = try await emulator.request(
                "POST", "/sesame/v1/faults", json: fault.settings(pathPrefix: target.pathPrefix), port: port)
            guard status == 200 else { throw HarnessError("faults on port \(port): \(status) \(body.jsonString)") }
        }
    }

    /// Clears every fault on every port.
    func clearFaults() async throws {
        for port in ports { try await emulator.request("DELETE", "/sesame/v1/faults", port: port) }
    }

    /// Moves the backend's clock past its mail timer (Supabase: one mail per address a
    /// minute); nothing to do on Firebase. ``clearFaults()`` sets the clock back.
    func skipMailTimer() async throws {
        guard let supabase = emulator.supabase else { return }
        try await emulator.request("POST", "/sesame/v1/faults", json: ["clockSkewSeconds": 61], port: supabase.port)
    }

    /// The daemon's settings for the matrix: the short request timeout.
    var daemonSettings: [String: [String: String]] {
        ["backend": ["request_timeout": "\(MatrixFault.requestTimeoutSeconds)"]]
    }

    func createAccount(email: String, password: String) async throws -> String {
        try await emulator.createAccount(email: email, password: password)
    }

    func accountExists(_ uid: String) async throws -> Bool {
        try await emulator.accountExists(uid)
    }

    func email(of uid: String) async throws -> String? {
        try await emulator.accountInfo(uid)?.email
    }

    func providers(of uid: String) async throws -> [String] {
        try await emulator.accountInfo(uid)?.providers ?? []
    }

    /// The uid that holds a username key in the directory.
    func usernameOwner(_ key: String) async throws -> String? {
        try await emulator.usernameOwner(key)
    }

    /// The newest sign-in link sent to `email`.
    func signInLink(_ email: String) async throws -> String? {
        try await emulator.signInLink(email: email)
    }

    /// A federated ID token the emulator accepts (verified email).
    func idpToken(sub: String, email: String) -> String {
        emulator.federatedIdToken(sub: sub, email: email, verified: true)
    }
}
