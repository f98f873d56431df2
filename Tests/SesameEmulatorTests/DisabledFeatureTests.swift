import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Identity Toolkit features the emulator lacks answer as with the feature turned off")
struct DisabledFeatureTests {
    /// Project-scoped paths are called as an admin (they need privilege, as every such path).
    @Test func everyUnservedOperationAnswersItsDisabledError() async throws {
        try await TestEmulator.with { emu in
            for feature in AuthEndpoints.disabledFeatures {
                for path in feature.paths {
                    let answer = try await emu.request(
                        "POST", "\(emu.authBase)\(path)?key=fake-api-key", body: Array("{}".utf8),
                        headers: [("Content-Type", "application/json")]
                            + (path.contains("/projects/") ? [("Authorization", "Bearer owner")] : []))
                    #expect(answer.status == 400, "\(path)")
                    #expect(answer.errorMessage == feature.message, "\(path)")
                    #expect(answer.json["error"]?["errors"]?.arrayValue?.first?["reason"] == "invalid", "\(path)")
                }
            }
        }
    }

    @Test func phoneSignInAndSmsMultiFactorAreOperationNotAllowed() async throws {
        try await TestEmulator.with { emu in
            let phone = try await emu.auth("accounts:signInWithPhoneNumber", ["phoneNumber": "+15555550100"])
            #expect(phone.status == 400)
            #expect(phone.errorMessage == "OPERATION_NOT_ALLOWED")
            let user = try await emu.signUp(email: "mfa@example.com")
            let mfa = try await emu.request(
                "POST", "\(emu.authBase)/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start?key=k",
                body: JSONValue.object([
                    "idToken": user["idToken"]!, "phoneEnrollmentInfo": ["phoneNumber": "+15555550100"],
                ])
                .serialized(),
                headers: [("Content-Type", "application/json")])
            #expect(mfa.errorMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
            let saml = try await emu.auth("accounts:issueSamlResponse", [:])
            #expect(saml.errorMessage == "CONFIGURATION_NOT_FOUND")
        }
    }
}
