import Foundation
import SesameLocalAPI
import Testing

@testable import SesameClient

/// The methods of "Second factors" and "Account security" against the fake daemon: the
/// protocol's names and params, the results read into public values, and the challenge of
/// `second-factor-required` on the error.
@Suite("Second factor and account security calls", .timeLimit(.minutes(1)))
struct SesameClientAccountSecurityTests {
    static let challengeData: [String: JSONValue] = [
        "challengeId": "ch-1",
        "factors": [["factorId": "f-1", "type": "totp", "displayName": "Phone", "enrolledAt": .null]],
        "expiresAt": "2026-11-21T10:05:00Z",
    ]

    static let secondFactorRequired = LocalAPIError(
        code: .authentication, reason: "second-factor-required",
        message: "This account has a second factor: complete the sign-in with a code.", data: challengeData)

    @Test func secondFactorRequiredCarriesTheChallenge() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("signIn") { _ in .error(Self.secondFactorRequired) }
        let error = await #expect(throws: SesameClientError.self) {
            _ = try await client.signIn(identifier: "ann@example.com", password: "pw")
        }
        let challenge = try #require(error?.daemonError?.challenge)
        #expect(error?.reason == "second-factor-required" && error?.code == 1000)
        #expect(challenge.challengeId == "ch-1")
        #expect(challenge.factors == [SesameSecondFactor(factorId: "f-1", type: "totp", displayName: "Phone")])
        #expect(challenge.expiresAt == WireTime.parse("2026-11-21T10:05:00Z"))
        #expect(error?.daemonError?.dataJSON.contains("\"challengeId\":\"ch-1\"") == true)
        await client.close()
        await daemon.stop()
    }

    @Test func otherErrorsHaveNoChallenge() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("changePassword") { _ in
            .error(LocalAPIError(code: .authentication, reason: "requires-recent-login", message: "Sign in again."))
        }
        let error = await #expect(throws: SesameClientError.self) { try await client.changePassword(newPassword: "n") }
        #expect(error?.reason == "requires-recent-login")
        #expect(error?.daemonError?.challenge == nil)
        await client.close()
        await daemon.stop()
    }

    @Test func theEightMethodsSendTheProtocolsNamesAndParamsAndReadTheResults() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let state = await daemon.stateJSON
        await daemon.script("completeSecondFactor") { _ in .result(["state": state, "merge": .null]) }
        await daemon.script("enrollTotp") { _ in
            .result([
                "enrollmentId": "e-1", "secret": "JBSWY3DPEHPK3PXP",
                "otpauthUri": "otpauth://totp/Sesame:ann%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Sesame",
                "expiresAt": "2026-11-21T10:10:00Z",
            ])
        }
        for method in ["confirmTotp", "unenrollFactor"] { await daemon.script(method) { _ in .result(state) } }
        await daemon.script("reauthenticate") { request in
            request.params.values.isEmpty
                ? .result(["validUntil": .null, "codeSent": true]) : .result(["validUntil": "2026-11-21T10:10:00Z"])
        }
        await daemon.script("changePassword") { _ in .result([:]) }
        await daemon.script("changeEmail") { _ in .result(["pendingEmail": "new@example.com"]) }
        await daemon.script("confirmPasswordReset") { _ in .result(["email": "ann@example.com"]) }

        let done = try await client.completeSecondFactor(challengeId: "ch-1", code: "123456")
        #expect(done.state.user?.uid == "guest-1" && done.merge == nil)
        _ = try await client.completeSecondFactor(challengeId: "ch-1", code: "654321", factorId: "f-1")
        let enrollment = try await client.enrollTotp(displayName: "Phone")
        #expect(enrollment.enrollmentId == "e-1" && enrollment.secret == "JBSWY3DPEHPK3PXP")
        #expect(enrollment.otpauthUri.hasPrefix("otpauth://totp/"))
        #expect(enrollment.expiresAt == WireTime.parse("2026-11-21T10:10:00Z"))
        #expect(!"\(enrollment)".contains("JBSWY3DPEHPK3PXP"), "the secret is left out of the description")
        _ = try await client.enrollTotp()
        _ = try await client.confirmTotp(enrollmentId: "e-1", code: "123456")
        _ = try await client.unenrollFactor(factorId: "f-1")
        let proven = try await client.reauthenticate(password: "pw")
        #expect(proven.validUntil == WireTime.parse("2026-11-21T10:10:00Z") && !proven.codeSent)
        let sent = try await client.sendReauthenticationCode()
        #expect(sent.codeSent && sent.validUntil == nil)
        _ = try await client.reauthenticate(code: "777777")
        try await client.changePassword(newPassword: "new-pw")
        #expect(try await client.changeEmail(newEmail: "new@example.com") == "new@example.com")
        #expect(
            try await client.confirmPasswordReset(link: "https://x/reset?oobCode=c", newPassword: "n1")
                == "ann@example.com")
        _ = try await client.confirmPasswordReset(code: "123456", email: "ann@example.com", newPassword: "n2")

        let requests = await daemon.requests
        func params(_ method: String, _ index: Int = 0) -> [String: JSONValue] {
            requests.filter { $0.method == method }[index].params.values
        }
        #expect(params("completeSecondFactor") == ["challengeId": "ch-1", "code": "123456"])
        #expect(params("completeSecondFactor", 1) == ["challengeId": "ch-1", "code": "654321", "factorId": "f-1"])
        #expect(params("enrollTotp") == ["displayName": "Phone"])
        #expect(params("enrollTotp", 1) == [:])
        #expect(params("confirmTotp") == ["enrollmentId": "e-1", "code": "123456"])
        #expect(params("unenrollFactor") == ["factorId": "f-1"])
        #expect(params("reauthenticate") == ["password": "pw"])
        #expect(params("reauthenticate", 1) == [:])
        #expect(params("reauthenticate", 2) == ["code": "777777"])
        #expect(params("changePassword") == ["newPassword": "new-pw"])
        #expect(params("changeEmail") == ["newEmail": "new@example.com"])
        #expect(params("confirmPasswordReset") == ["link": "https://x/reset?oobCode=c", "newPassword": "n1"])
        #expect(
            params("confirmPasswordReset", 1) == ["code": "123456", "email": "ann@example.com", "newPassword": "n2"])
        await client.close()
        await daemon.stop()
    }

    @Test func anEnrolmentWithoutItsSecretIsNotProtocol() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("enrollTotp") { _ in .result(["enrollmentId": "e-1"]) }
        let error = await #expect(throws: SesameClientError.self) { _ = try await client.enrollTotp() }
        guard case .protocolError = error else {
            Issue.record("expected a protocol error, got \(String(describing: error))")
            return
        }
        await client.close()
        await daemon.stop()
    }

    @Test func theNewFieldsOfUserAndStateAreRead() throws {
        let json: JSONValue = [
            "status": "signedOut", "user": .null, "token": .null, "connectivity": "online", "needsUsername": false,
            "pendingMerges": [], "sequence": 3, "signInPrompt": .null, "secondFactor": .object(Self.challengeData),
        ]
        let state = try #require(SesameState(json: json))
        #expect(state.secondFactor?.challengeId == "ch-1")
        #expect(state.secondFactor?.factors.first?.displayName == "Phone")
        let user = try #require(
            SesameUser(json: [
                "uid": "ann", "isAnonymous": false, "pendingEmail": "new@example.com",
                "factors": [
                    ["factorId": "f-1", "type": "totp", "displayName": .null, "enrolledAt": "2026-11-21T10:00:00Z"]
                ],
            ]))
        #expect(user.pendingEmail == "new@example.com")
        #expect(user.factors.first?.enrolledAt == WireTime.parse("2026-11-21T10:00:00Z"))
    }
}
