import Foundation
import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Firebase: createAuthUri + signInWithIdp with the fake identity provider")
struct FirebaseFederatedFlowTests {
    static let continueUri = "http://127.0.0.1:40123/done"

    /// `createAuthUri` for `provider`, then the person approves as `email`: answers the
    /// `sessionId` and the callback URL the browser came back to.
    func browserSignIn(
        _ emu: TestEmulator, _ provider: String = "google.com", email: String
    ) async throws -> (
        sessionId: String, callback: String
    ) {
        let started = try await emu.auth(
            "accounts:createAuthUri", ["providerId": .string(provider), "continueUri": .string(Self.continueUri)])
        #expect(started.status == 200, "\(started.json.jsonString)")
        #expect(started.json["kind"] == "identitytoolkit#CreateAuthUriResponse")
        #expect(started.json["providerId"]?.stringValue == provider)
        let authUri = try #require(started.json["authUri"]?.stringValue)
        #expect(authUri.hasPrefix("\(emu.authBase)/emulator/v1/idp/\(provider)/authorize?"))
        #expect(FakeIdP.query(authUri)["redirect_uri"] == Self.continueUri)
        let back = try await FakeIdP(emu, provider).consent(authUri, email: email)
        #expect(back.status == 302)
        return (try #require(started.json["sessionId"]?.stringValue), try #require(back.header("location")))
    }

    func complete(
        _ emu: TestEmulator, _ flow: (sessionId: String, callback: String), idToken: JSONValue? = nil,
        returnIdpCredential: Bool? = nil
    ) async throws -> HTTPAnswer {
        var body: [String: JSONValue] = [
            "requestUri": .string(flow.callback), "sessionId": .string(flow.sessionId), "returnSecureToken": true,
        ]
        body["idToken"] = idToken
        body["returnIdpCredential"] = returnIdpCredential.map(JSONValue.bool)
        return try await emu.auth("accounts:signInWithIdp", .object(body))
    }

    @Test func aBrowserSignInSignsUpAndItsCallbackCannotBeReplayed() async throws {
        try await TestEmulator.with { emu in
            let flow = try await browserSignIn(emu, email: "Web@Example.com")
            #expect(flow.callback.hasPrefix(Self.continueUri + "?code="))
            let signedIn = try await complete(emu, flow)
            #expect(signedIn.status == 200, "\(signedIn.json.jsonString)")
            #expect(signedIn.json["isNewUser"] == true && signedIn.json["providerId"] == "google.com")
            #expect(signedIn.json["email"] == "web@example.com" && signedIn.json["emailVerified"] == true)
            #expect(signedIn.json["oauthIdToken"]?.stringValue?.isEmpty == false)
            #expect(signedIn.json["idToken"]?.stringValue?.isEmpty == false)
            let replay = try await complete(emu, flow)
            #expect(replay.status == 400)
            #expect(replay.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        }
    }

    @Test func aForgedStateIsRefusedAndChangesNothing() async throws {
        try await TestEmulator.with { emu in
            let flow = try await browserSignIn(emu, email: "state@example.com")
            let forged = flow.callback.replacingOccurrences(of: "state=", with: "state=x")
            let refused = try await complete(emu, (flow.sessionId, forged))
            #expect(refused.status == 400 && refused.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
            let noSession = try await emu.auth("accounts:signInWithIdp", ["requestUri": .string(flow.callback)])
            #expect(noSession.status == 400)
            let signedIn = try await complete(emu, flow)
            #expect(signedIn.status == 200)
        }
    }

    @Test func anErrorCallbackIsAClearError() async throws {
        try await TestEmulator.with { emu in
            let answer = try await emu.auth(
                "accounts:signInWithIdp",
                [
                    "requestUri": .string(Self.continueUri + "?error=access_denied&error_description=no&state=s"),
                    "sessionId": "whatever",
                ])
            #expect(answer.status == 400)
            #expect(answer.errorMessage?.contains("access_denied") == true)
        }
    }

    @Test func linkingToAGuestKeepsTheUidAndAConflictHandsBackTheCredential() async throws {
        try await TestEmulator.with { emu in
            let guest = try await emu.signUpAnonymously()
            let linked = try await complete(
                emu, try await browserSignIn(emu, email: "owner@example.com"), idToken: guest["idToken"])
            #expect(linked.status == 200, "\(linked.json.jsonString)")
            #expect(linked.json["localId"] == guest["localId"])
            #expect(linked.json["isNewUser"] == nil)

            let other = try await emu.signUpAnonymously()
            let conflict = try await complete(
                emu, try await browserSignIn(emu, email: "owner@example.com"), idToken: other["idToken"],
                returnIdpCredential: true)
            #expect(conflict.status == 200)
            #expect(conflict.json["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED")
            #expect(conflict.json["localId"] == nil && conflict.json["idToken"] == nil)
            let credential = try #require(conflict.json["oauthIdToken"]?.stringValue)
            #expect(conflict.json["oauthAccessToken"]?.stringValue?.isEmpty == false)
            // The credential signs into the account that owns the identity.
            let again = try await emu.auth(
                "accounts:signInWithIdp",
                [
                    "requestUri": "http://localhost",
                    "postBody": .string("providerId=google.com&id_token=\(PercentEncoding.queryValue(credential))"),
                    "returnSecureToken": true,
                ])
            #expect(again.status == 200 && again.json["localId"] == guest["localId"])
        }
    }

    @Test func aGitHubAccessTokenAloneSignsIn() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "github.com")
            let start = try await idp.startDevice()
            #expect(try await idp.approve(start, email: "octo@example.com", name: "Octo").status == 200)
            let token = try #require(try await idp.poll(start).json["access_token"]?.stringValue)
            let body: JSONValue = [
                "requestUri": "http://localhost",
                "postBody": .string("access_token=\(token)&providerId=github.com"), "returnSecureToken": true,
            ]
            let signedIn = try await emu.auth("accounts:signInWithIdp", body)
            #expect(signedIn.status == 200, "\(signedIn.json.jsonString)")
            #expect(signedIn.json["providerId"] == "github.com" && signedIn.json["email"] == "octo@example.com")
            #expect(signedIn.json["screenName"] == "octo" && signedIn.json["oauthAccessToken"]?.stringValue == token)
            #expect(signedIn.json["oauthIdToken"] == nil)
            let again = try await emu.auth("accounts:signInWithIdp", body)
            #expect(again.json["localId"] == signedIn.json["localId"] && again.json["isNewUser"] == nil)

            let unknown = try await emu.auth(
                "accounts:signInWithIdp",
                ["requestUri": "http://localhost", "postBody": "access_token=gho_unknown&providerId=github.com"])
            #expect(unknown.status == 400 && unknown.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
        }
    }

    @Test func aGitHubBrowserSignInCarriesAnAccessTokenOnly() async throws {
        try await TestEmulator.with { emu in
            let signedIn = try await complete(emu, try await browserSignIn(emu, "github.com", email: "cat@example.com"))
            #expect(signedIn.status == 200, "\(signedIn.json.jsonString)")
            #expect(signedIn.json["providerId"] == "github.com" && signedIn.json["screenName"] == "cat")
            #expect(signedIn.json["oauthIdToken"] == nil)
            #expect(signedIn.json["oauthAccessToken"]?.stringValue?.hasPrefix("gho_") == true)
        }
    }

    @Test func anApprovalWithAGivenSubIsThatAccount() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "google.com")
            let start = try await idp.startDevice()
            let approved = try await idp.json(
                "device/approve", ["userCode": start["user_code"] ?? .null, "email": "sub@example.com", "sub": "42"])
            #expect(approved.status == 200)
            let idToken = try #require(try await idp.poll(start).json["id_token"]?.stringValue)
            let signedIn = try await emu.auth(
                "accounts:signInWithIdp",
                ["requestUri": "http://localhost", "postBody": .string("id_token=\(idToken)&providerId=google.com")])
            #expect(signedIn.json["federatedId"] == "https://accounts.google.com/42")
        }
    }

    @Test func aDeviceFlowIdTokenSignsInWithThePostBody() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "microsoft.com")
            let start = try await idp.startDevice()
            _ = try await idp.approve(start, email: "ms@example.com")
            let idToken = try #require(try await idp.poll(start).json["id_token"]?.stringValue)
            let signedIn = try await emu.auth(
                "accounts:signInWithIdp",
                [
                    "requestUri": "http://localhost",
                    "postBody": .string("id_token=\(idToken)&providerId=microsoft.com"), "returnSecureToken": true,
                ])
            #expect(signedIn.status == 200 && signedIn.json["email"] == "ms@example.com")
        }
    }

    @Test func createAuthUriRefusesNonIdpProviders() async throws {
        try await TestEmulator.with { emu in
            let answer = try await emu.auth(
                "accounts:createAuthUri", ["providerId": "password", "continueUri": .string(Self.continueUri)])
            #expect(answer.status == 400 && answer.errorMessage?.hasPrefix("INVALID_PROVIDER_ID") == true)
            let relative = try await emu.auth(
                "accounts:createAuthUri", ["providerId": "google.com", "continueUri": "/x"])
            #expect(relative.errorMessage == "INVALID_CONTINUE_URI")
        }
    }
}
