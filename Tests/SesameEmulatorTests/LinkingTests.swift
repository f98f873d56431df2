import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Upgrading an anonymous user, and the conflicts")
struct LinkingTests {
    @Test func linkAnonymousWithPasswordKeepsUidAndRevokesOldTokens() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            emu.time.advance(seconds: 2)
            let linked = try await emu.auth(
                "accounts:signUp",
                [
                    "idToken": anon["idToken"]!, "email": "up@example.com", "password": "secret-pw",
                    "returnSecureToken": true,
                ])
            #expect(linked.status == 200)
            #expect(linked.json["localId"] == anon["localId"])
            #expect(TestEmulator.claims(linked.json["idToken"])["firebase"]?["sign_in_provider"] == "password")
            let old = try await emu.auth("accounts:lookup", ["idToken": anon["idToken"]!])
            #expect(old.errorMessage == "TOKEN_EXPIRED")
            let fresh = try await emu.auth("accounts:lookup", ["idToken": linked.json["idToken"]!])
            let user = try #require(fresh.json["users"]?.arrayValue?.first)
            #expect(user["email"] == "up@example.com")
            #expect(user["emailVerified"] == false)
            #expect(user["providerUserInfo"]?.arrayValue?.first?["providerId"] == "password")
            #expect(user["passwordHash"]?.stringValue?.hasSuffix(":password=secret-pw") == true)
            let signIn = try await emu.auth(
                "accounts:signInWithPassword", ["email": "up@example.com", "password": "secret-pw"])
            #expect(signIn.json["localId"] == anon["localId"])
        }
    }

    @Test func linkAnonymousWithPasswordThroughUpdate() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            let linked = try await emu.auth(
                "accounts:update", ["idToken": anon["idToken"]!, "email": "upd@example.com", "password": "secret-pw"])
            #expect(linked.status == 200)
            #expect(linked.json["localId"] == anon["localId"])
            #expect(linked.json["idToken"] != nil)
            #expect(TestEmulator.claims(linked.json["idToken"])["firebase"]?["sign_in_provider"] == "password")
        }
    }

    @Test func linkAnonymousWithEmailLink() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            let code = try await emu.sendSignInLink(to: "link@example.com")
            let linked = try await emu.auth(
                "accounts:signInWithEmailLink",
                ["idToken": anon["idToken"]!, "email": "link@example.com", "oobCode": .string(code)])
            #expect(linked.status == 200)
            #expect(linked.json["kind"] == "identitytoolkit#EmailLinkSigninResponse")
            #expect(linked.json["localId"] == anon["localId"])
            #expect(linked.json["isNewUser"] == false)
            let claims = TestEmulator.claims(linked.json["idToken"])
            #expect(claims["firebase"]?["sign_in_provider"] == "password")
            #expect(claims["email_verified"] == true)
            let methods = try await emu.auth(
                "accounts:createAuthUri", ["identifier": "link@example.com", "continueUri": "http://localhost"])
            #expect(methods.json["registered"] == true)
            #expect(methods.json["signinMethods"] == ["emailLink"])
        }
    }

    @Test func linkAnonymousWithIdp() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            let postBody = TestEmulator.idpPostBody([
                "sub": "g-123", "email": "G@Example.com", "email_verified": true, "name": "Gee",
            ])
            let linked = try await emu.auth(
                "accounts:signInWithIdp",
                [
                    "idToken": anon["idToken"]!, "postBody": .string(postBody), "requestUri": "http://localhost",
                    "returnIdpCredential": true,
                ])
            #expect(linked.status == 200)
            #expect(linked.json["localId"] == anon["localId"])
            #expect(linked.json["isNewUser"] == nil)
            #expect(linked.json["providerId"] == "google.com")
            #expect(linked.json["federatedId"] == "https://accounts.google.com/g-123")
            #expect(linked.json["oauthAccessToken"] == "FirebaseAuthEmulatorFakeAccessToken_google.com")
            let claims = TestEmulator.claims(linked.json["idToken"])
            #expect(claims["firebase"]?["sign_in_provider"] == "google.com")
            #expect(claims["firebase"]?["identities"]?["google.com"] == ["g-123"])
            #expect(claims["email"] == "g@example.com")
            #expect(claims["email_verified"] == true)
        }
    }

    @Test func idpSignInCreatesThenFindsTheSameAccount() async throws {
        try await TestEmulator.with { emu in
            let body: JSONValue = [
                "postBody": .string(
                    TestEmulator.idpPostBody(provider: "github.com", ["sub": "gh-1", "screen_name": "octo"])),
                "requestUri": "http://localhost",
            ]
            let first = try await emu.auth("accounts:signInWithIdp", body)
            #expect(first.status == 200)
            #expect(first.json["isNewUser"] == true)
            #expect(first.json["federatedId"] == "gh-1")
            #expect(first.json["screenName"] == "octo")
            let second = try await emu.auth("accounts:signInWithIdp", body)
            #expect(second.json["localId"] == first.json["localId"])
            #expect(second.json["isNewUser"] == nil)
        }
    }

    @Test func idpAcceptsUnsignedJWTs() async throws {
        try await TestEmulator.with { emu in
            let payload = Base64URL.encode(Array(#"{"sub":"jwt-sub","email":"jwt@example.com"}"#.utf8))
            let jwt = "eyJhbGciOiJub25lIn0.\(payload).sig"
            let answer = try await emu.auth(
                "accounts:signInWithIdp",
                ["postBody": .string("providerId=google.com&id_token=\(jwt)"), "requestUri": "http://localhost"])
            #expect(answer.status == 200)
            #expect(answer.json["email"] == "jwt@example.com")
            #expect(answer.json["oauthIdToken"]?.stringValue == jwt)
        }
    }

    @Test func idpInputErrors() async throws {
        try await TestEmulator.with { emu in
            let missingUri = try await emu.auth(
                "accounts:signInWithIdp", ["postBody": "providerId=google.com&id_token=%7B%7D"])
            #expect(missingUri.errorMessage == "MISSING_REQUEST_URI")
            let noSub = try await emu.auth(
                "accounts:signInWithIdp",
                ["postBody": "providerId=google.com&id_token=%7B%7D", "requestUri": "http://localhost"])
            #expect(
                noSub.errorMessage?.hasPrefix(
                    "INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields.") == true)
            let numericSub = try await emu.auth(
                "accounts:signInWithIdp",
                ["postBody": "providerId=google.com&id_token=%7B%22sub%22%3A1%7D", "requestUri": "http://localhost"])
            #expect(numericSub.errorMessage == "INVALID_IDP_RESPONSE : ((The \"sub\" field must be a string.))")
            let garbage = try await emu.auth(
                "accounts:signInWithIdp",
                ["postBody": "providerId=google.com&id_token=garbage", "requestUri": "http://localhost"])
            #expect(garbage.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : Unable to parse id_token: garbage") == true)
            let noProvider = try await emu.auth(
                "accounts:signInWithIdp", ["postBody": "id_token=%7B%7D", "requestUri": "http://localhost"])
            #expect(
                noProvider.errorMessage?.hasPrefix(
                    "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential:") == true)
        }
    }

    @Test func linkingPasswordToATakenEmailFails() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.signUp(email: "owner@example.com")
            let anon = try await emu.signUpAnonymously()
            let answer = try await emu.auth(
                "accounts:signUp", ["idToken": anon["idToken"]!, "email": "owner@example.com", "password": "secret-pw"])
            #expect(answer.errorMessage == "EMAIL_EXISTS")
            let update = try await emu.auth(
                "accounts:update", ["idToken": anon["idToken"]!, "email": "OWNER@example.com"])
            #expect(update.errorMessage == "EMAIL_EXISTS")
        }
    }

    @Test func emailLinkOntoAnotherAccountsEmailFailsAndBurnsTheCode() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.signUp(email: "owner@example.com")
            let anon = try await emu.signUpAnonymously()
            let code = try await emu.sendSignInLink(to: "owner@example.com")
            let body: JSONValue = ["idToken": anon["idToken"]!, "email": "owner@example.com", "oobCode": .string(code)]
            let first = try await emu.auth("accounts:signInWithEmailLink", body)
            #expect(first.errorMessage == "EMAIL_EXISTS")
            let second = try await emu.auth("accounts:signInWithEmailLink", body)
            #expect(second.errorMessage == "INVALID_OOB_CODE")
            #expect(try await emu.oobCode(for: "owner@example.com") == nil)
        }
    }

    @Test func idpConflictsWithAndWithoutReturnIdpCredential() async throws {
        try await TestEmulator.with { emu in
            let postBody = TestEmulator.idpPostBody([
                "sub": "shared-sub", "email": "idp@example.com", "email_verified": true,
            ])
            let owner = try await emu.auth(
                "accounts:signInWithIdp", ["postBody": .string(postBody), "requestUri": "http://localhost"])
            #expect(owner.status == 200)
            let anon = try await emu.signUpAnonymously()

            let plain = try await emu.auth(
                "accounts:signInWithIdp",
                ["idToken": anon["idToken"]!, "postBody": .string(postBody), "requestUri": "http://localhost"])
            #expect(plain.status == 400)
            #expect(plain.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")

            let soft = try await emu.auth(
                "accounts:signInWithIdp",
                [
                    "idToken": anon["idToken"]!, "postBody": .string(postBody), "requestUri": "http://localhost",
                    "returnIdpCredential": true,
                ])
            #expect(soft.status == 200)
            #expect(soft.json["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED")
            #expect(soft.json["idToken"] == nil)
            #expect(soft.json["localId"] == nil)
            #expect(soft.json["oauthIdToken"] != nil)

            let otherSub = TestEmulator.idpPostBody(
                provider: "facebook.com", ["sub": "fb-1", "email": "idp@example.com"])
            let emailTaken = try await emu.auth(
                "accounts:signInWithIdp",
                ["idToken": anon["idToken"]!, "postBody": .string(otherSub), "requestUri": "http://localhost"])
            #expect(emailTaken.errorMessage == "EMAIL_EXISTS")
            let emailTakenSoft = try await emu.auth(
                "accounts:signInWithIdp",
                [
                    "idToken": anon["idToken"]!, "postBody": .string(otherSub), "requestUri": "http://localhost",
                    "returnIdpCredential": true,
                ])
            #expect(emailTakenSoft.status == 200)
            #expect(emailTakenSoft.json["errorMessage"] == "EMAIL_EXISTS")

            // Switching to the owning account: the same credential without idToken.
            let switched = try await emu.auth(
                "accounts:signInWithIdp", ["postBody": .string(postBody), "requestUri": "http://localhost"])
            #expect(switched.json["localId"] == owner.json["localId"])
        }
    }

    @Test func unverifiedIdpEmailMatchingAnAccountNeedsConfirmation() async throws {
        try await TestEmulator.with { emu in
            let existing = try await emu.signUp(email: "pw@example.com")
            let postBody = TestEmulator.idpPostBody(
                provider: "facebook.com", ["sub": "fb-9", "email": "pw@example.com", "email_verified": false])
            let answer = try await emu.auth(
                "accounts:signInWithIdp", ["postBody": .string(postBody), "requestUri": "http://localhost"])
            #expect(answer.status == 200)
            #expect(answer.json["needConfirmation"] == true)
            #expect(answer.json["localId"] == existing["localId"])
            #expect(answer.json["idToken"] == nil)
        }
    }

    @Test func verifiedIdpEmailTakesOverAnUnverifiedPasswordAccount() async throws {
        try await TestEmulator.with { emu in
            let existing = try await emu.signUp(email: "takeover@example.com")
            emu.time.advance(seconds: 2)
            let postBody = TestEmulator.idpPostBody([
                "sub": "g-77", "email": "takeover@example.com", "email_verified": true,
            ])
            let answer = try await emu.auth(
                "accounts:signInWithIdp", ["postBody": .string(postBody), "requestUri": "http://localhost"])
            #expect(answer.status == 200)
            #expect(answer.json["localId"] == existing["localId"])
            let old = try await emu.auth("accounts:lookup", ["idToken": existing["idToken"]!])
            #expect(old.errorMessage == "TOKEN_EXPIRED")
            let pw = try await emu.auth(
                "accounts:signInWithPassword", ["email": "takeover@example.com", "password": "secret-pw"])
            #expect(pw.errorMessage == "INVALID_PASSWORD")
        }
    }

    @Test func unlinkProviders() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            let postBody = TestEmulator.idpPostBody(["sub": "g-5"])
            let linked = try await emu.auth(
                "accounts:signInWithIdp",
                ["idToken": anon["idToken"]!, "postBody": .string(postBody), "requestUri": "http://localhost"])
            let unlinked = try await emu.auth(
                "accounts:update", ["idToken": linked.json["idToken"]!, "deleteProvider": ["google.com"]])
            #expect(unlinked.status == 200)
            #expect(unlinked.json["providerUserInfo"] == nil)
            #expect(unlinked.json["idToken"] == nil)
        }
    }
}
