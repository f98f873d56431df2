import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// What the second-factor suites share: an emulator started with options, a daemon on it, and
/// an account with a verified address and an enrolled TOTP factor.
enum SecondFactorTestSupport {
    /// Runs `body` with an emulator (started with `arguments`) and a daemon on it.
    static func withDaemon(
        _ backend: TestBackend, emulatorArguments: [String] = [],
        settings: [String: [String: String]] = ["merge": ["hold": "0"]],
        _ body: (EmulatorProcess, DaemonProcess) async throws -> Void
    ) async throws {
        let emulator = try await EmulatorProcess.start(backend: backend, arguments: emulatorArguments)
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator, settings: settings)
        defer { Task { await daemon.cleanUp() } }
        do {
            try await body(emulator, daemon)
        } catch {
            Issue.record("daemon log tail:\n\(daemon.log.suffix(4000))")
            throw error
        }
    }

    /// An account made from the guest, its address confirmed where the backend needs that
    /// before a second factor (Firebase). Returns its uid.
    @discardableResult
    static func createAccount(
        _ email: String, password: String = "secret12", username: String? = nil, on daemon: DaemonProcess,
        at emulator: EmulatorProcess
    ) async throws -> String {
        var params: [String: JSONValue] = ["email": .string(email), "password": .string(password)]
        if let username { params["username"] = .string(username) }
        let state = try await daemon.rpc("createAccount", params)
        if emulator.backend == .firebase {
            try await daemon.rpc("sendEmailVerification")
            try await emulator.confirmAddress(email)
            try await daemon.rpc("reload")
        }
        return try #require(state["user"]?["uid"]?.stringValue)
    }

    /// Enrols a TOTP factor for the signed-in account; returns its secret and factor id.
    static func enrollTotp(
        on daemon: DaemonProcess, name: String = "phone"
    ) async throws -> (secret: String, factorId: String) {
        let enrollment = try await daemon.rpc("enrollTotp", ["displayName": .string(name)])
        let secret = try #require(enrollment["secret"]?.stringValue)
        let id = try #require(enrollment["enrollmentId"]?.stringValue)
        let state = try await daemon.rpc(
            "confirmTotp", ["enrollmentId": .string(id), "code": .string(try EmulatorProcess.totpCode(secret))])
        let factor = try #require(state["user"]?["factors"]?.arrayValue?.first)
        return (secret, try #require(factor["factorId"]?.stringValue))
    }

    /// An account with a TOTP factor, then signed out to a fresh guest: the starting point of a
    /// second-factor sign-in. Returns the account's uid, the factor's secret and the guest's uid.
    static func protectedAccountAndGuest(
        _ email: String, on daemon: DaemonProcess, at emulator: EmulatorProcess
    ) async throws -> (uid: String, secret: String, guest: String) {
        let uid = try await createAccount(email, on: daemon, at: emulator)
        let (secret, _) = try await enrollTotp(on: daemon)
        let guest = try #require(try await daemon.rpc("signOut")["user"]?["uid"]?.stringValue)
        return (uid, secret, guest)
    }

    /// Signs in with a password, expecting the second factor to be asked for; returns the challenge id.
    static func signInExpectingChallenge(
        _ email: String, password: String = "secret12", on daemon: DaemonProcess
    ) async throws -> String {
        let error = try await daemon.rpcError(
            "second-factor-required", "signIn", ["identifier": .string(email), "password": .string(password)])
        #expect(error?.code == 1000)
        return try #require(error?.data["challengeId"]?.stringValue)
    }
}
