import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 21: the second factor on the other ways in than a password, end to end — an email link
/// and the device flow reach an account with a TOTP factor; nothing changes until the code.
@Suite("second factors end to end: email links and the device flow", .serialized, .timeLimit(.minutes(3)))
struct SecondFactorOtherWaysTests {
    typealias Support = SecondFactorTestSupport

    @Test(
        "an email link from a guest: second-factor-required, then merged with the code", arguments: TestBackend.allCases
    )
    func emailLink(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let email = "mfa-link@example.com"
            let (uid, secret, guest) = try await Support.protectedAccountAndGuest(email, on: daemon, at: emulator)

            try await daemon.rpc("sendSignInLink", ["email": .string(email)])
            let link = try #require(try await emulator.signInLink(email: email))
            let error = try await daemon.rpcError(
                "second-factor-required", "completeSignInLink", ["link": .string(link)])
            let challengeId = try #require(error?.data["challengeId"]?.stringValue)
            #expect(try await daemon.wireState()["user"]?["uid"]?.stringValue == guest)

            let outcome = try await daemon.rpc(
                "completeSecondFactor",
                [
                    "challengeId": .string(challengeId),
                    "code": .string(try EmulatorProcess.totpCode(secret, skewSeconds: 30)),
                ])
            #expect(outcome["state"]?["user"]?["uid"]?.stringValue == uid)
            #expect(outcome["merge"]?["fromUid"]?.stringValue == guest)
            #expect(!daemon.log.contains(link))
        }
    }

    @Test(
        "the device flow reaches an account with a factor: awaitSignIn says so, the code finishes it",
        arguments: TestBackend.allCases)
    func deviceFlow(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let email = "mfa-device@example.com"
            // The identity's account, made from a first guest, with a factor enrolled.
            let first = try await daemon.rpc("startSignIn", ["providerId": "google.com", "flow": "device"])
            try await emulator.approveDevice(
                providerId: "google.com", userCode: try #require(first["userCode"]?.stringValue), email: email)
            let signedIn = try await daemon.rpc(
                "awaitSignIn", ["flowId": .string(try #require(first["flowId"]?.stringValue)), "timeout": 60])
            let account = try #require(signedIn["state"]?["user"]?["uid"]?.stringValue)
            let (secret, _) = try await Support.enrollTotp(on: daemon)
            let guest = try #require(try await daemon.rpc("signOut")["user"]?["uid"]?.stringValue)

            let second = try await daemon.rpc("startSignIn", ["providerId": "google.com", "flow": "device"])
            try await emulator.approveDevice(
                providerId: "google.com", userCode: try #require(second["userCode"]?.stringValue), email: email)
            let error = try await daemon.rpcError(
                "second-factor-required", "awaitSignIn",
                ["flowId": .string(try #require(second["flowId"]?.stringValue)), "timeout": 60])
            let challengeId = try #require(error?.data["challengeId"]?.stringValue)
            let pending = try await daemon.wireState()
            #expect(pending["user"]?["uid"]?.stringValue == guest)
            #expect(pending["status"]?.stringValue == "anonymous")

            let outcome = try await daemon.rpc(
                "completeSecondFactor",
                [
                    "challengeId": .string(challengeId),
                    "code": .string(try EmulatorProcess.totpCode(secret, skewSeconds: 30)),
                ])
            #expect(outcome["state"]?["user"]?["uid"]?.stringValue == account)
            #expect(outcome["merge"]?["fromUid"]?.stringValue == guest)
        }
    }
}
