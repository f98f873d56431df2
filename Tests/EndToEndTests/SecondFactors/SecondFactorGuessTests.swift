import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 31, items 3, 5 and 6d: the daemon bounds second-factor guesses whatever the backend
/// allows, logs them in a bounded number of lines, and only a manager may end a challenge.
@Suite("second factors: guesses bounded", .serialized, .timeLimit(.minutes(3)))
struct SecondFactorGuessTests {
    typealias Support = SecondFactorTestSupport

    @Test(
        "twenty wrong codes on one challenge: the fifth ends it, the right code is refused, the log stays short",
        arguments: TestBackend.allCases)
    func wrongCodesEndTheChallenge(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let email = "mfa-guess@example.com"
            let (_, secret, guest) = try await Support.protectedAccountAndGuest(email, on: daemon, at: emulator)
            let challengeId = try await Support.signInExpectingChallenge(email, on: daemon)
            let wrong = try EmulatorProcess.wrongTotpCode(secret)
            let params: [String: JSONValue] = ["challengeId": .string(challengeId), "code": .string(wrong)]

            for left in [4, 3, 2, 1] {
                let error = try #require(
                    try await daemon.rpcError("invalid-verification-code", "completeSecondFactor", params))
                #expect(error.message.contains("\(left) more wrong"), "\(error.message)")
                #expect(try await daemon.wireState()["secondFactor"]?["challengeId"]?.stringValue == challengeId)
            }
            let ended = try #require(try await daemon.rpcError("too-many-requests", "completeSecondFactor", params))
            #expect(ended.code == 2000)
            #expect(ended.data["retryAfterMs"]?.int64Value == 30_000)
            let state = try await daemon.wireState()
            #expect(state["secondFactor"] == .null)
            #expect(state["user"]?["uid"]?.stringValue == guest)
            for _ in 6...20 {
                try await daemon.rpcError("expired-sign-in-flow", "completeSecondFactor", params)
            }
            // The right code is refused too: the challenge is gone.
            try await daemon.rpcError(
                "expired-sign-in-flow", "completeSecondFactor",
                [
                    "challengeId": .string(challengeId),
                    "code": .string(try EmulatorProcess.totpCode(secret, skewSeconds: 30)),
                ])
            // A new sign-in during the lockout opens no challenge.
            let refused = try #require(
                try await daemon.rpcError(
                    "too-many-requests", "signIn", ["identifier": .string(email), "password": "secret12"]))
            #expect((refused.data["retryAfterMs"]?.int64Value ?? 0) > 0)
            #expect(try await daemon.wireState()["secondFactor"] == .null)
            #expect(try await daemon.wireState()["user"]?["uid"]?.stringValue == guest)

            // The log: the challenge opened, the first wrong code, the end; one refusal. Not one per code.
            let lines = daemon.log.split(separator: "\n").filter { !$0.contains("debug:") }
            let aboutChallenge = lines.filter { $0.contains(challengeId) }
            #expect(aboutChallenge.count <= 4, "\(aboutChallenge.joined(separator: "\n"))")
            #expect(lines.filter { $0.contains("wrong second-factor code") }.count == 2)
            #expect(lines.filter { $0.contains("Refused a second-factor sign-in") }.count == 1)
            #expect(!daemon.log.contains(wrong))
        }
    }

    @Test(
        "an observer's password reset does not replace a manager's challenge; cancelSignIn with its id ends it",
        arguments: TestBackend.allCases)
    func onlyAManagerEndsTheChallenge(backend: TestBackend) async throws {
        try await Support.withDaemon(
            backend,
            settings: [
                "merge": ["hold": "0"], "socket": ["mode": "\"0666\""],
                "access": ["observers": "[\"user:nobody\"]", "readers": "[]"],
            ]
        ) { emulator, daemon in
            // A second protected account whose reset the observer completes.
            let other = "mfa-other@example.com"
            let (_, otherSecret, _) = try await Support.protectedAccountAndGuest(other, on: daemon, at: emulator)
            let email = "mfa-held@example.com"
            _ = try await Support.protectedAccountAndGuest(email, on: daemon, at: emulator)
            let challengeId = try await Support.signInExpectingChallenge(email, on: daemon)

            try await daemon.rpc("sendPasswordReset", ["identifier": .string(other)])
            let link = try await emulator.passwordResetProof(other)
            let reset = try await Self.asNobody(
                daemon, ["reset-password", "--complete", link, "--password-stdin", "--code-stdin"],
                stdin: "observer-pw-77\n\(try EmulatorProcess.totpCode(otherSecret))\n")
            switch backend {
            case .firebase:
                // Identity Platform resets without the second factor: no challenge to replace.
                #expect(reset.status == 0, "\(reset.stderr)")
            case .supabase:
                #expect(reset.status != 0)
                #expect(reset.stderr.contains("waits for a second-factor code"), "\(reset.stderr)")
            }
            #expect(try await daemon.wireState()["secondFactor"]?["challengeId"]?.stringValue == challengeId)

            // The manager cancels it: gone, and the code is refused.
            _ = try await daemon.rpc("cancelSignIn", ["flowId": .string(challengeId)])
            #expect(try await daemon.wireState()["secondFactor"] == .null)
            try await daemon.rpcError(
                "expired-sign-in-flow", "cancelSignIn", ["flowId": .string(challengeId)])
        }
    }

    /// Runs sesamectl as `nobody` (an observer by the daemon's `[access]`).
    static func asNobody(_ daemon: DaemonProcess, _ arguments: [String], stdin: String) async throws -> CommandResult {
        chmod(daemon.directory, 0o755)
        let ctl = daemon.directory + "/sesamectl"
        if !FileManager.default.fileExists(atPath: ctl) {
            try FileManager.default.copyItem(atPath: BuiltBinaries.path("sesamectl"), toPath: ctl)
            chmod(ctl, 0o755)
        }
        return try await runCommand(
            "/usr/sbin/runuser", ["-u", "nobody", "--", ctl] + arguments + ["--socket", daemon.socketPath],
            stdin: stdin)
    }
}
