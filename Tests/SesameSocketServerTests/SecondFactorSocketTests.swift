import Foundation
import SesameCore
import SesameLocalAPI
import SesameTesting
import Testing

/// `second-factor-required` on the wire: the challenge in `error.data`, in `State.secondFactor`,
/// and `completeSecondFactor` finishing the sign-in.
@Suite("Socket server: second factors on the wire")
struct SecondFactorSocketTests {
    @Test("signIn to an account with a factor: 1000 with challengeId, factors and expiresAt; the code merges the guest")
    func secondFactorOnTheWire() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            let owner = await harness.provider.addAccount(email: "ann@example.com", password: "secret1")
            let factorId = await harness.provider.addTotpFactor(uid: owner, secret: "WIRESECRET", displayName: "phone")
            let answer = try await client.call(
                "signIn", id: 1, params: ["identifier": "ann@example.com", "password": "secret1"])
            #expect(answer["error"]?["code"] == 1000)
            let data = try #require(answer["error"]?["data"])
            #expect(data["reason"] == "second-factor-required")
            guard case .string(let challengeId)? = data["challengeId"] else {
                Issue.record("no challengeId in \(data)")
                return
            }
            guard case .array(let factors)? = data["factors"], let factor = factors.first, factors.count == 1 else {
                Issue.record("no factors in \(data)")
                return
            }
            #expect(factor["factorId"] == .string(factorId))
            #expect(factor["type"] == "totp" && factor["displayName"] == "phone")
            #expect(data["expiresAt"] != nil && data["expiresAt"] != .null)
            let message = answer["error"]?["message"]
            #expect(message.map { !"\($0)".contains("pending-") } == true)

            let state = try await client.call("getState", id: 2)
            #expect(state["result"]?["secondFactor"]?["challengeId"] == .string(challengeId))
            #expect(state["result"]?["status"] == "anonymous")

            let wrong = try await client.call(
                "completeSecondFactor", id: 3, params: ["challengeId": .string(challengeId), "code": "12"])
            #expect(
                wrong["error"]?["code"] == 1000 && wrong["error"]?["data"]?["reason"] == "invalid-verification-code")

            let code = FakeRemoteAuthProvider.code(secret: "WIRESECRET", at: harness.clock.date)
            let done = try await client.call(
                "completeSecondFactor", id: 4, params: ["challengeId": .string(challengeId), "code": .string(code)])
            #expect(done["result"]?["state"]?["status"] == "authenticated")
            #expect(done["result"]?["state"]?["secondFactor"] == .null)
            #expect(done["result"]?["merge"]?["toUid"] == .string(owner))

            let replay = try await client.call(
                "completeSecondFactor", id: 5, params: ["challengeId": .string(challengeId), "code": .string(code)])
            #expect(replay["error"]?["data"]?["reason"] == "expired-sign-in-flow")
        }
    }

    @Test("enrolment, reauthentication and an address change on the wire: their results and the user's new fields")
    func accountSecurityOnTheWire() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            var answer = try await client.call(
                "createAccount", id: 1, params: ["email": "bo@example.com", "password": "secret1"])
            #expect(answer["result"]?["status"] == "authenticated")
            answer = try await client.call("reauthenticate", id: 4, params: ["password": "secret1"])
            #expect(answer["result"]?["validUntil"] != nil && answer["result"]?["validUntil"] != .null)
            answer = try await client.call("reauthenticate", id: 5, params: .object([:]))
            #expect(answer["error"]?["data"]?["reason"] == "operation-not-allowed")
            answer = try await client.call("enrollTotp", id: 2, params: ["displayName": "phone"])
            guard case .string(let enrollmentId)? = answer["result"]?["enrollmentId"],
                case .string(let secret)? = answer["result"]?["secret"]
            else {
                Issue.record("no enrolment in \(answer)")
                return
            }
            #expect(answer["result"]?["expiresAt"] != nil)
            guard case .string(let uri)? = answer["result"]?["otpauthUri"] else {
                Issue.record("no otpauthUri in \(answer)")
                return
            }
            #expect(uri.hasPrefix("otpauth://totp/"))
            let code = FakeRemoteAuthProvider.code(secret: secret, at: harness.clock.date)
            answer = try await client.call(
                "confirmTotp", id: 3, params: ["enrollmentId": .string(enrollmentId), "code": .string(code)])
            guard case .array(let factors)? = answer["result"]?["user"]?["factors"] else {
                Issue.record("no factors in \(answer)")
                return
            }
            #expect(factors.count == 1 && factors.first?["type"] == "totp")

            answer = try await client.call("reauthenticate", id: 9, params: ["password": "secret1"])
            #expect(answer["error"]?["data"]?["reason"] == "second-factor-required", "the account has a factor now")
            answer = try await client.call("changeEmail", id: 6, params: ["newEmail": "bo2@example.com"])
            #expect(answer["result"]?["pendingEmail"] == "bo2@example.com")
            answer = try await client.call("getState", id: 7)
            #expect(answer["result"]?["user"]?["pendingEmail"] == "bo2@example.com")
            #expect(answer["result"]?["user"]?["email"] == "bo@example.com")
            answer = try await client.call("changePassword", id: 8, params: ["newPassword": "abc"])
            #expect(answer["error"]?["data"]?["reason"] == "weak-password")
        }
    }
}
