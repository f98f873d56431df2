import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: features not served answer as GoTrue does with them off")
struct GoTrueNotServedTests {
    @Test func ssoIsSAMLProviderDisabled() async throws {
        try await SupabaseTestEmulator.with { emu in
            let sso = try await emu.call("POST", "/auth/v1/sso", ["domain": "example.com"])
            #expect(sso.status == 404 && sso.goTrueCode == "saml_provider_disabled")
            #expect(sso.json["msg"] == "SAML 2.0 is disabled")
            let versioned = try await emu.call("POST", "/auth/v1/sso", ["domain": "example.com"], versioned: true)
            #expect(versioned.json["code"] == "saml_provider_disabled")
            #expect(versioned.json["message"] == "SAML 2.0 is disabled")
            let metadata = try await emu.call("GET", "/auth/v1/sso/saml/metadata")
            #expect(metadata.status == 404 && metadata.goTrueCode == "saml_provider_disabled")
        }
    }

    @Test func theOAuthServerIsFeatureDisabledBehindTheAdminCheck() async throws {
        try await SupabaseTestEmulator.with { emu in
            let clients = try await emu.admin("GET", "oauth/clients")
            #expect(clients.status == 404 && clients.goTrueCode == "feature_disabled")
            #expect(clients.json["msg"] == "OAuth server is disabled")
            let register = try await emu.admin("POST", "oauth/clients", ["client_name": "x"])
            #expect(register.status == 404 && register.goTrueCode == "feature_disabled")
            let anon = try await emu.call("GET", "/auth/v1/admin/oauth/clients", bearer: emu.anonKey)
            #expect(anon.status == 403 && anon.goTrueCode == "not_admin")
            let authorize = try await emu.call("GET", "/auth/v1/oauth/authorize?client_id=x")
            #expect(authorize.status == 404 && authorize.goTrueCode == "feature_disabled")
        }
    }

    @Test func phoneSignUpOTPAndPasswordAreTheProviderOffAnswers() async throws {
        try await SupabaseTestEmulator.with { emu in
            let signUp = try await emu.call(
                "POST", "/auth/v1/signup", ["phone": "+15555550100", "password": "secret-pw"])
            #expect(signUp.status == 400 && signUp.goTrueCode == "phone_provider_disabled")
            #expect(signUp.json["msg"] == "Phone signups are disabled")
            let otp = try await emu.call("POST", "/auth/v1/otp", ["phone": "+15555550100"])
            #expect(otp.status == 400 && otp.goTrueCode == "phone_provider_disabled")
            #expect(otp.json["msg"] == "Unsupported phone provider")
            let password = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["phone": "+15555550100", "password": "secret-pw"])
            #expect(password.status == 422 && password.goTrueCode == "phone_provider_disabled")
            #expect(password.json["msg"] == "Phone logins are disabled")
        }
    }

    @Test func manualLinkingIsDisabledForASignedInUser() async throws {
        try await SupabaseTestEmulator.with { emu in
            let signedOut = try await emu.call("GET", "/auth/v1/user/identities/authorize?provider=google")
            #expect(signedOut.status == 401 && signedOut.goTrueCode == "no_authorization")
            let session = try await emu.anonymousSession()
            let linking = try await emu.call(
                "GET", "/auth/v1/user/identities/authorize?provider=google", bearer: session["access_token"]?.text)
            #expect(linking.status == 404 && linking.goTrueCode == "manual_linking_disabled")
        }
    }

    @Test func anAdminCreatedUserWithoutEmailConfirmIsNotConfirmed() async throws {
        try await SupabaseTestEmulator.with { emu in
            _ = try await emu.admin("POST", "users", ["email": "unconfirmed@example.com", "password": "secret-pw"])
            let grant = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password",
                ["email": "unconfirmed@example.com", "password": "secret-pw"])
            #expect(grant.status == 400 && grant.goTrueCode == "email_not_confirmed")
            #expect(grant.json["msg"] == "Email not confirmed")
        }
    }

    @Test func healthDescribesItselfAsGoTrue() async throws {
        try await SupabaseTestEmulator.with { emu in
            let health = try await emu.call("GET", "/auth/v1/health", apikey: nil)
            #expect(health.status == 200)
            #expect(health.json["name"] == "GoTrue")
            #expect(health.json["description"] == "GoTrue is a user registration and authentication API")
            #expect(health.json["version"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func anEmailCodeAndItsLinkBothRecordOTP() async throws {
        try await SupabaseTestEmulator.with { emu in
            let link = try await emu.admin("POST", "generate_link", ["type": "magiclink", "email": "amr@example.com"])
            let typed = try await emu.call(
                "POST", "/auth/v1/verify",
                ["type": "email", "email": "amr@example.com", "token": link.json["email_otp"] ?? .null])
            #expect(
                SupabaseTestEmulator.claims(typed.json["access_token"])["amr"]?.arrayValue?.first?["method"] == "otp")
            let second = try await emu.admin(
                "POST", "generate_link", ["type": "magiclink", "email": "amr@example.com"])
            let followed = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "magiclink", "token_hash": second.json["hashed_token"] ?? .null])
            #expect(followed.status == 200, "\(followed.json.jsonString)")
            #expect(
                SupabaseTestEmulator.claims(followed.json["access_token"])["amr"]?.arrayValue?.first?["method"] == "otp"
            )
        }
    }
}
