import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 21, second factors end to end: the real daemon, the real emulator, codes computed by
/// RFC 6238 from the secret the daemon handed out, on both backends.
@Suite("second factors end to end", .serialized, .timeLimit(.minutes(3)))
struct SecondFactorSignInTests {
    typealias Support = SecondFactorTestSupport

    @Test(
        "enrol TOTP, sign out, sign in with the password and a code: the guest merged, the challenge seen by all",
        arguments: TestBackend.allCases)
    func enrolThenSignInWithCode(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let email = "mfa-one@example.com"
            let uid = try await Support.createAccount(email, on: daemon, at: emulator)

            // Enrolment: a secret and an otpauth URI; a wrong code activates nothing.
            let enrollment = try await daemon.rpc("enrollTotp", ["displayName": "phone"])
            let secret = try #require(enrollment["secret"]?.stringValue)
            let enrollmentId = try #require(enrollment["enrollmentId"]?.stringValue)
            #expect(enrollment["otpauthUri"]?.stringValue?.hasPrefix("otpauth://totp/") == true)
            #expect(enrollment["otpauthUri"]?.stringValue?.contains("secret=\(secret)") == true)
            try await daemon.rpcError(
                "invalid-verification-code", "confirmTotp",
                ["enrollmentId": .string(enrollmentId), "code": .string(try EmulatorProcess.wrongTotpCode(secret))])
            #expect(try await daemon.wireState()["user"]?["factors"]?.arrayValue?.isEmpty == true)
            let enrolled = try await daemon.rpc(
                "confirmTotp",
                ["enrollmentId": .string(enrollmentId), "code": .string(try EmulatorProcess.totpCode(secret))])
            let factors = try #require(enrolled["user"]?["factors"]?.arrayValue)
            #expect(factors.count == 1)
            #expect(factors.first?["type"]?.stringValue == "totp")
            #expect(factors.first?["displayName"]?.stringValue == "phone")

            // Signed out: a fresh guest. The password alone changes nothing.
            let guestState = try await daemon.rpc("signOut")
            let guest = try #require(guestState["user"]?["uid"]?.stringValue)
            #expect(guest != uid)
            let error = try #require(
                try await daemon.rpcError(
                    "second-factor-required", "signIn", ["identifier": .string(email), "password": "secret12"]))
            #expect(error.code == 1000)
            let challengeId = try #require(error.data["challengeId"]?.stringValue)
            #expect(error.data["factors"]?.arrayValue?.first?["type"]?.stringValue == "totp")
            #expect(error.data["expiresAt"]?.stringValue != nil)
            let pending = try await daemon.wireState()
            #expect(pending["secondFactor"]?["challengeId"]?.stringValue == challengeId)
            #expect(pending["status"]?.stringValue == "anonymous")
            #expect(pending["user"]?["uid"]?.stringValue == guest)

            // A wrong code: the challenge stays open.
            try await daemon.rpcError(
                "invalid-verification-code", "completeSecondFactor",
                ["challengeId": .string(challengeId), "code": .string(try EmulatorProcess.wrongTotpCode(secret))])
            #expect(try await daemon.wireState()["secondFactor"]?["challengeId"]?.stringValue == challengeId)

            // The next step's code (both services accept the enrolment's code again in its
            // window, but the test does not lean on that): signed in, the guest merged.
            let code = try EmulatorProcess.totpCode(secret, skewSeconds: 30)
            let outcome = try await daemon.rpc(
                "completeSecondFactor", ["challengeId": .string(challengeId), "code": .string(code)])
            #expect(outcome["state"]?["status"]?.stringValue == "authenticated")
            #expect(outcome["state"]?["user"]?["uid"]?.stringValue == uid)
            #expect(outcome["merge"]?["fromUid"]?.stringValue == guest)
            #expect(outcome["state"]?["secondFactor"] == .null)
            try await eventually("the merged guest deleted") { try await !emulator.accountExists(guest) }

            // Spent: the challenge cannot be answered again.
            let replay = try await daemon.rpcError(
                "expired-sign-in-flow", "completeSecondFactor",
                ["challengeId": .string(challengeId), "code": .string(code)])
            #expect(replay?.code == 1000)
            for secretText in [secret, code, "secret12"] { #expect(!daemon.log.contains(secretText)) }
        }
    }

    @Test(
        "a restart between the factors (SIGTERM, or SIGKILL): the challenge is gone, the guest intact",
        arguments: TestBackend.allCases, [false, true])
    func restartDropsTheChallenge(backend: TestBackend, killed: Bool) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let email = "mfa-restart@example.com"
            let (_, secret, guest) = try await Support.protectedAccountAndGuest(email, on: daemon, at: emulator)
            let challengeId = try await Support.signInExpectingChallenge(email, on: daemon)

            if killed { try await daemon.kill() } else { _ = try await daemon.stop() }
            try await daemon.restart(waitFor: "anonymous")
            let state = try await daemon.wireState()
            #expect(state["secondFactor"] == .null)
            #expect(state["user"]?["uid"]?.stringValue == guest)
            try await daemon.rpcError(
                "expired-sign-in-flow", "completeSecondFactor",
                [
                    "challengeId": .string(challengeId),
                    "code": .string(try EmulatorProcess.totpCode(secret, skewSeconds: 30)),
                ])
            #expect(try await emulator.accountExists(guest))
        }
    }

    @Test(
        "the backend down between the factors: a 2000, the challenge kept, the retry signs in",
        arguments: TestBackend.allCases)
    func backendDownBetweenTheFactors(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let email = "mfa-down@example.com"
            let (uid, secret, guest) = try await Support.protectedAccountAndGuest(email, on: daemon, at: emulator)
            let challengeId = try await Support.signInExpectingChallenge(email, on: daemon)
            let finalize =
                backend == .firebase
                ? "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize" : "/auth/v1/factors/"
            try await emulator.faults(["failNext": 1, "failStatus": 503, "pathPrefix": .string(finalize)])
            let code = try EmulatorProcess.totpCode(secret, skewSeconds: 30)
            let down = try #require(
                try await daemon.rpcError(
                    "backend-unavailable", "completeSecondFactor",
                    ["challengeId": .string(challengeId), "code": .string(code)]))
            #expect(down.code == 2000)
            let waiting = try await daemon.wireState()
            #expect(waiting["secondFactor"]?["challengeId"]?.stringValue == challengeId)
            #expect(waiting["user"]?["uid"]?.stringValue == guest)
            let outcome = try await daemon.rpc(
                "completeSecondFactor", ["challengeId": .string(challengeId), "code": .string(code)])
            #expect(outcome["state"]?["user"]?["uid"]?.stringValue == uid)
            #expect(outcome["merge"]?["fromUid"]?.stringValue == guest)
        }
    }

    @Test("unenrol: the next sign-in needs no code", arguments: TestBackend.allCases)
    func unenrol(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let email = "mfa-remove@example.com"
            let uid = try await Support.createAccount(email, on: daemon, at: emulator)
            let (_, factorId) = try await Support.enrollTotp(on: daemon)
            let state = try await daemon.rpc("unenrollFactor", ["factorId": .string(factorId)])
            #expect(state["user"]?["factors"]?.arrayValue?.isEmpty == true)
            _ = try await daemon.rpc("signOut")
            let outcome = try await daemon.rpc("signIn", ["identifier": .string(email), "password": "secret12"])
            #expect(outcome["state"]?["user"]?["uid"]?.stringValue == uid)
            #expect(outcome["state"]?["status"]?.stringValue == "authenticated")
        }
    }
}
