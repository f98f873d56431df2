import Foundation
import SesameLocalAPI
import Testing

/// A backend column of the fault matrix: where each flow's call goes on it, and a look at its
/// side of an account (through its admin surface), independent of the daemon.
struct MatrixBackend: Sendable {
    let emulator: EmulatorProcess

    /// The port and path prefix of the call a flow's fault goes on.
    func target(of flow: MatrixFlow) -> (port: Int, pathPrefix: String) {
        let identity = "/identitytoolkit.googleapis.com/v1/"
        switch flow {
        case .anonymousStart, .createAccount, .signOut: return (emulator.authPort, identity + "accounts:signUp")
        case .refresh: return (emulator.authPort, "/securetoken.googleapis.com")
        case .signInAndMerge: return (emulator.authPort, identity + "accounts:signInWithPassword")
        case .emailLink: return (emulator.authPort, identity + "accounts:signInWithEmailLink")
        case .federated: return (emulator.authPort, identity + "accounts:signInWithIdp")
        case .deleteAccount: return (emulator.authPort, identity + "accounts:delete")
        case .usernameClaim: return (emulator.databasePort, "/users/usernames")
        }
    }

    /// Puts `fault` on `flow`'s call. A clock skew applies to every port (the whole backend's
    /// clock is off).
    func inject(_ fault: MatrixFault, on flow: MatrixFlow) async throws {
        let target = target(of: flow)
        let ports = fault.isSkew ? [emulator.authPort, emulator.databasePort] : [target.port]
        for port in ports {
            let (status, body) = try await emulator.request(
                "POST", "/sesame/v1/faults", json: fault.settings(pathPrefix: target.pathPrefix), port: port)
            guard status == 200 else { throw HarnessError("faults on port \(port): \(status) \(body.jsonString)") }
        }
    }

    /// Clears every fault on every port.
    func clearFaults() async throws {
        for port in [emulator.authPort, emulator.databasePort] {
            try await emulator.request("DELETE", "/sesame/v1/faults", port: port)
        }
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
        try await emulator.account(uid)?["email"]?.stringValue
    }

    func providers(of uid: String) async throws -> [String] {
        let infos = try await emulator.account(uid)?["providerUserInfo"]?.arrayValue ?? []
        return infos.compactMap { $0["providerId"]?.stringValue }
    }

    /// The uid that holds `username` in the directory (any spelling of its key).
    func usernameOwner(_ username: String) async throws -> String? {
        let namespace = "\(EmulatorProcess.project)-default-rtdb"
        let (_, body) = try await emulator.request(
            "GET", "/users/usernames.json?ns=\(namespace)", port: emulator.databasePort)
        return body.objectValue?.values.compactMap(\.stringValue).first
    }

    /// A sign-in link just sent to `email`.
    func signInLink(_ email: String) async throws -> String? {
        try await emulator.oobLink(email: email)
    }

    /// A fake IdP ID token the emulator accepts.
    func idpToken(sub: String, email: String) -> String {
        claims(sub: sub, email: email, verified: true)
    }
}
