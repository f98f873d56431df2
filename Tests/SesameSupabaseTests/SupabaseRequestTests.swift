import Foundation
import SesameCore
import SesameHTTP
import SesameSupabase
import SesameTesting
import Testing

/// The requests the adapter sends, as reviewable snapshots, and how it reads the answers.
@Suite("Supabase adapter: requests and answers")
struct SupabaseRequestTests {
    @Test("anonymous sign-up: POST /auth/v1/signup with the project headers and no bearer")
    func signUpAnonymously() async throws {
        let transport = ScriptedTransport([Fixtures.session()])
        let result = try await Fixtures.provider(transport).signUpAnonymously()
        #expect(result.uid == "u-1" && result.isNewUser && result.refreshToken.rawValue == "r1")
        #expect(result.idToken.signInProvider == "anonymous")
        #expect(
            result.idToken.issuedAt == Fixtures.now && result.idToken.expiresAt == Fixtures.now.addingTimeInterval(3600)
        )
        #expect(
            await transport.snapshots == [
                """
                POST https://proj.supabase.co/auth/v1/signup
                accept: application/json
                apikey: ANON
                content-type: application/json
                x-supabase-api-version: 2024-01-01
                {}
                """
            ])
    }

    @Test("refresh: grant_type in the query, the token in the body; the rotated token comes back")
    func refresh() async throws {
        let transport = ScriptedTransport([Fixtures.session(refresh: "r2")])
        let grant = try await Fixtures.provider(transport).refresh(RefreshToken("r1"))
        #expect(grant.uid == "u-1" && grant.refreshToken.rawValue == "r2")
        let snapshot = try #require(await transport.snapshots.first)
        #expect(snapshot.hasPrefix("POST https://proj.supabase.co/auth/v1/token?grant_type=refresh_token\n"))
        #expect(snapshot.hasSuffix(#"{"refresh_token":"r1"}"#))
        #expect(!snapshot.contains("authorization"))
    }

    @Test("lookup: GET /user with the bearer; identities become Firebase provider ids")
    func lookup() async throws {
        let user =
            #"{"id":"u-1","aud":"authenticated","is_anonymous":false,"app_metadata":{"provider":"email","providers":["email","google"]},"user_metadata":{"full_name":"Ann Lee","avatar":{"x":1}},"email":"ann@example.com","email_confirmed_at":"2026-11-21T10:01:00Z","created_at":"2026-11-21T10:00:00.123456Z","last_sign_in_at":"2026-11-21T10:05:00+00:00","identities":[{"identity_id":"i1","provider":"email"},{"identity_id":"i2","provider":"google"},{"identity_id":"i3","provider":"keycloak"}]}"#
        let transport = ScriptedTransport([.json(200, user)])
        let result = try await Fixtures.provider(transport).lookup(Fixtures.idToken())
        #expect(result.uid == "u-1" && !result.isAnonymous && result.email == "ann@example.com" && result.emailVerified)
        #expect(result.providers == ["password", "google.com", "keycloak"])
        #expect(result.displayName == "Ann Lee")
        #expect(abs((result.createdAt?.timeIntervalSince1970 ?? 0) - 1_795_255_200.123456) < 0.001)
        #expect(result.lastSignInAt == Date(timeIntervalSince1970: 1_795_255_500))
        #expect(await transport.snapshots.first?.contains("authorization: Bearer USER.ACCESS.TOKEN") == true)
        #expect(await transport.snapshots.first?.hasPrefix("GET https://proj.supabase.co/auth/v1/user\n") == true)
    }

    @Test("linking email and password: PUT /user, then a password sign-in, then the guest session is ended")
    func linkPassword() async throws {
        let linkedUser = Fixtures.user(
            anonymous: false, extra: #","email":"ann@example.com","email_confirmed_at":"2026-11-21T10:01:00Z""#)
        let transport = ScriptedTransport([
            .json(200, linkedUser), Fixtures.session(jwt: Fixtures.passwordJWT, refresh: "r9", user: linkedUser),
            .noContent,
        ])
        let result = try await Fixtures.provider(transport).signUp(
            email: "ann@example.com", password: "pw-123456", linkingTo: Fixtures.idToken())
        #expect(result.uid == "u-1" && !result.isNewUser && result.idToken.signInProvider == "password")
        let snapshots = await transport.snapshots
        #expect(snapshots.count == 3)
        #expect(snapshots[0].hasPrefix("PUT https://proj.supabase.co/auth/v1/user\n"))
        #expect(snapshots[0].hasSuffix(#"{"email":"ann@example.com","password":"pw-123456"}"#))
        #expect(snapshots[1].hasPrefix("POST https://proj.supabase.co/auth/v1/token?grant_type=password\n"))
        #expect(snapshots[2].hasPrefix("POST https://proj.supabase.co/auth/v1/logout?scope=local\n"))
        #expect(snapshots[2].contains("authorization: Bearer USER.ACCESS.TOKEN"))
    }

    @Test("linking when the project confirms emails: operation-not-allowed saying to confirm")
    func linkNeedsConfirmation() async throws {
        let pending = Fixtures.user(extra: #","new_email":"ann@example.com""#)
        let transport = ScriptedTransport([.json(200, pending)])
        await #expect(throws: RemoteAuthError.self) {
            _ = try await Fixtures.provider(transport).signUp(
                email: "ann@example.com", password: "pw-123456", linkingTo: Fixtures.idToken())
        }
        #expect(await transport.requests.count == 1)
    }

    @Test("passwordless: POST /otp (redirect_to in the query), then /verify with the code or the link's hash")
    func passwordless() async throws {
        let transport = ScriptedTransport([.json(200, "{}"), Fixtures.session(), Fixtures.session()])
        let provider = Fixtures.provider(transport)
        try await provider.sendSignInLink(email: "ann@example.com", continueUrl: "https://app.example/done")
        _ = try await provider.signIn(email: "ann@example.com", proof: .code(" 123456 "), linkingTo: nil)
        _ = try await provider.signIn(
            email: "ann@example.com",
            proof: .link(
                "https://proj.supabase.co/auth/v1/verify?token=pkce_abc&type=magiclink&redirect_to=https://app.example"),
            linkingTo: nil)
        let snapshots = await transport.snapshots
        #expect(
            snapshots[0].hasPrefix(
                "POST https://proj.supabase.co/auth/v1/otp?redirect_to=https%3A%2F%2Fapp.example%2Fdone\n"))
        #expect(snapshots[0].hasSuffix(#"{"create_user":true,"email":"ann@example.com"}"#))
        #expect(snapshots[1].hasSuffix(#"{"email":"ann@example.com","token":"123456","type":"email"}"#))
        #expect(snapshots[2].hasSuffix(#"{"token_hash":"pkce_abc","type":"magiclink"}"#))
    }

    @Test("sign-in proofs are checked before anything is spent: a link needs a token, a code must not be empty")
    func checkProof() throws {
        let provider = Fixtures.provider(ScriptedTransport([]))
        try provider.checkSignInProof(.code("123456"))
        try provider.checkSignInProof(.link("http://127.0.0.1:54321/auth/v1/verify?token=abc&type=magiclink"))
        try provider.checkSignInProof(.link("https://app.example/confirm?token_hash=abc&type=email"))
        for proof: EmailSignInProof in [.code("  "), .link("https://app.example/welcome"), .link("not a link")] {
            #expect(throws: RemoteAuthError.self) { try provider.checkSignInProof(proof) }
        }
    }

    @Test("federated: the id_token grant in Supabase's provider name; link_identity with the bearer")
    func federated() async throws {
        let transport = ScriptedTransport([Fixtures.session(), Fixtures.session()])
        let provider = Fixtures.provider(transport)
        let credential = FederatedCredential(providerId: "google.com", idToken: "IDP.TOKEN", accessToken: nil)
        _ = try await provider.signIn(federated: credential, linkingTo: nil)
        _ = try await provider.signIn(federated: credential, linkingTo: Fixtures.idToken())
        let snapshots = await transport.snapshots
        #expect(snapshots[0].hasSuffix(#"{"id_token":"IDP.TOKEN","provider":"google"}"#))
        #expect(!snapshots[0].contains("authorization"))
        #expect(snapshots[1].hasSuffix(#"{"id_token":"IDP.TOKEN","link_identity":true,"provider":"google"}"#))
        #expect(snapshots[1].contains("authorization: Bearer USER.ACCESS.TOKEN"))
        await #expect(throws: RemoteAuthError.self) {
            _ = try await provider.signIn(
                federated: FederatedCredential(providerId: "github.com", idToken: nil, accessToken: "gho_x"),
                linkingTo: nil)
        }
        #expect(await transport.requests.count == 2)
    }

    @Test("sign-out revokes the session at the server (scope local); a session already gone is fine")
    func revoke() async throws {
        let transport = ScriptedTransport([.noContent, .error(403, "session_not_found")])
        let provider = Fixtures.provider(transport)
        try await provider.revokeSession(Fixtures.idToken())
        try await provider.revokeSession(Fixtures.idToken())
        #expect(
            await transport.snapshots.first?.hasPrefix("POST https://proj.supabase.co/auth/v1/logout?scope=local\n")
                == true)
    }

    @Test(
        "sign-out scopes: POST /logout?scope=others or scope=global with the session's bearer; a refusal is not swallowed"
    )
    func revokeScopes() async throws {
        let transport = ScriptedTransport([.noContent, .noContent, .error(403, "session_not_found")])
        let provider = Fixtures.provider(transport)
        try await provider.revokeSessions(Fixtures.idToken(), scope: .others)
        try await provider.revokeSessions(Fixtures.idToken(), scope: .all)
        await #expect(throws: RemoteAuthError.accountGone(.sessionRevoked)) {
            try await provider.revokeSessions(Fixtures.idToken(), scope: .all)
        }
        let snapshots = await transport.snapshots
        #expect(snapshots[0].hasPrefix("POST https://proj.supabase.co/auth/v1/logout?scope=others\n"))
        #expect(snapshots[1].hasPrefix("POST https://proj.supabase.co/auth/v1/logout?scope=global\n"))
        #expect(snapshots.allSatisfy { $0.contains("authorization: Bearer USER.ACCESS.TOKEN") })
    }

    @Test("delete: POST /rest/v1/rpc/<function> with the bearer; not deployed says what to deploy")
    func delete() async throws {
        let transport = ScriptedTransport([.noContent, .json(200, "null"), .postgrest(404, "PGRST202")])
        let provider = Fixtures.provider(transport)
        try await provider.deleteAccount(Fixtures.idToken())
        try await provider.deleteAccount(Fixtures.idToken())
        let refusal = await #expect(throws: RemoteAuthError.self) {
            try await provider.deleteAccount(Fixtures.idToken())
        }
        let authError = try #require(refusal?.authError)
        #expect(authError.reason == .operationNotAllowed)
        #expect(authError.message.contains("delete_user") && authError.message.contains("docs/providers.md"))
        let snapshot = try #require(await transport.snapshots.first)
        #expect(snapshot.hasPrefix("POST https://proj.supabase.co/rest/v1/rpc/delete_user\n"))
        #expect(snapshot.contains("authorization: Bearer USER.ACCESS.TOKEN") && snapshot.contains("apikey: ANON"))
    }

    @Test("the backend is called supabase")
    func backendName() {
        #expect(Fixtures.provider(ScriptedTransport([])).backendName == "supabase")
    }

    @Test("sign-in methods are hidden on Supabase: nil, without a call")
    func signInMethods() async throws {
        let transport = ScriptedTransport([])
        #expect(try await Fixtures.provider(transport).signInMethods(forEmail: "ann@example.com") == nil)
        #expect(await transport.requests.isEmpty)
    }

    @Test("display name: PUT /user data.display_name; nil sends null")
    func updateProfile() async throws {
        let transport = ScriptedTransport([.json(200, Fixtures.user()), .json(200, Fixtures.user())])
        let provider = Fixtures.provider(transport)
        #expect(try await provider.updateProfile(Fixtures.idToken(), displayName: "Ann") == nil)
        _ = try await provider.updateProfile(Fixtures.idToken(), displayName: nil)
        let snapshots = await transport.snapshots
        #expect(snapshots[0].hasSuffix(#"{"data":{"display_name":"Ann"}}"#))
        #expect(snapshots[1].hasSuffix(#"{"data":{"display_name":null}}"#))
    }
}
