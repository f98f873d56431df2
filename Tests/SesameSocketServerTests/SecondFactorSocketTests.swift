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
}
