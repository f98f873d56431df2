import Foundation
import SesameCore
import SesameSupabase
import SesameTesting
import Testing

@Suite("Supabase adapter: provider ids, claims, directory requests")
struct SupabaseMappingTests {
    @Test(
        "Supabase provider ids become Firebase's on the wire; unknown ones pass through",
        arguments: [
            ("email", "password"), ("google", "google.com"), ("apple", "apple.com"), ("github", "github.com"),
            ("anonymous", "anonymous"), ("keycloak", "keycloak"), ("custom:acme", "custom:acme"),
        ])
    func providerIds(supabase: String, firebase: String) {
        #expect(SupabaseProviderIds.firebaseName(supabase) == firebase)
        #expect(SupabaseProviderIds.supabaseName(firebase) == supabase)
    }

    @Test(
        "signInProvider comes from is_anonymous, the newest amr entry, then app_metadata.provider",
        arguments: [
            (#"{"is_anonymous":true,"amr":[{"method":"anonymous","timestamp":1}]}"#, "anonymous"),
            (
                #"{"is_anonymous":false,"amr":[{"method":"anonymous","timestamp":1},{"method":"password","timestamp":5}]}"#,
                "password"
            ),
            (#"{"amr":[{"method":"otp","timestamp":3}],"app_metadata":{"provider":"email"}}"#, "password"),
            (#"{"amr":[{"method":"magiclink","timestamp":3}]}"#, "password"),
            (
                #"{"amr":[{"method":"oauth","timestamp":9},{"method":"password","timestamp":2}],"app_metadata":{"provider":"google"}}"#,
                "google.com"
            ),
            (#"{"amr":[{"method":"id_token","timestamp":9}],"app_metadata":{"provider":"apple"}}"#, "apple.com"),
            (#"{"amr":[{"method":"token_refresh","timestamp":9},{"method":"password","timestamp":2}]}"#, "password"),
            (#"{"app_metadata":{"provider":"github"}}"#, "github.com"),
            (#"{}"#, "unknown"),
        ])
    func signInProvider(payload: String, expected: String) async throws {
        let transport = ScriptedTransport([Fixtures.session(jwt: Fixtures.jwt(payload))])
        let result = try await Fixtures.provider(transport).signUpAnonymously()
        #expect(result.idToken.signInProvider == expected)
    }

    @Test("an unreadable token is signInProvider unknown, not a failure")
    func garbageToken() async throws {
        let transport = ScriptedTransport([Fixtures.session(jwt: "not-a-jwt")])
        #expect(try await Fixtures.provider(transport).signUpAnonymously().idToken.signInProvider == "unknown")
    }

    @Test("directory requests: reads with the anon key, writes with the user's token, PostgREST filters")
    func directoryRequests() async throws {
        let transport = ScriptedTransport([
            .json(200, #""u-1""#), .json(200, "null"), .json(201, ""), .postgrest(409, "23505"),
            .json(200, #""u-2""#), .json(204, ""), .json(200, #"[{"username":"Ann.Lee","email":null}]"#),
            .json(201, ""),
        ])
        let directory = Fixtures.directory(transport)
        let token = Fixtures.idToken()
        #expect(try await directory.owner(of: "ann,lee") == "u-1")
        #expect(try await directory.owner(of: "bob") == nil)
        #expect(try await directory.claim("ann,lee", for: "u-1", idToken: token))
        #expect(try await !directory.claim("ann,lee", for: "u-1", idToken: token))
        try await directory.release("ann,lee", of: "u-1", idToken: token)
        #expect(try await directory.details(of: "u-1") == UsernameDetails(username: "Ann.Lee", email: nil))
        try await directory.setDetails(
            UsernameDetails(username: "Ann.Lee", email: "ann@example.com"), of: "u-1", idToken: token)
        let snapshots = await transport.snapshots
        #expect(snapshots[0].hasPrefix("POST https://proj.supabase.co/rest/v1/rpc/username_owner\n"))
        #expect(snapshots[0].contains("authorization: Bearer ANON"))
        #expect(snapshots[0].hasSuffix(#"{"name_key":"ann,lee"}"#))
        #expect(snapshots[2].hasPrefix("POST https://proj.supabase.co/rest/v1/usernames\n"))
        #expect(
            snapshots[2].contains("prefer: return=minimal")
                && snapshots[2].contains("authorization: Bearer USER.ACCESS.TOKEN"))
        #expect(snapshots[2].hasSuffix(#"{"key":"ann,lee","uid":"u-1"}"#))
        #expect(
            snapshots[5].hasPrefix("DELETE https://proj.supabase.co/rest/v1/usernames?key=eq.ann%2Clee&uid=eq.u-1\n"))
        #expect(snapshots[6].hasPrefix("POST https://proj.supabase.co/rest/v1/rpc/username_details_of\n"))
        #expect(snapshots[6].contains("authorization: Bearer ANON"))
        #expect(snapshots[6].hasSuffix(#"{"user_id":"u-1"}"#))
        #expect(snapshots[7].contains("prefer: resolution=merge-duplicates,return=minimal"))
        #expect(snapshots[7].hasSuffix(#"{"email":"ann@example.com","uid":"u-1","username":"Ann.Lee"}"#))
    }

    @Test("lookup functions not deployed: operation-not-allowed naming the SQL block to run")
    func lookupsNotDeployed() async throws {
        let transport = ScriptedTransport([.postgrest(404, "PGRST202")])
        do {
            _ = try await Fixtures.directory(transport).owner(of: "ann")
            Issue.record("expected a refusal")
        } catch .unsupported(let message) {
            #expect(message.contains("username_owner") && message.contains("docs/providers.md"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a claim that lost to a retry of our own is ours")
    func claimRetry() async throws {
        let transport = ScriptedTransport([.postgrest(409, "23505"), .json(200, #""u-1""#)])
        #expect(try await Fixtures.directory(transport).claim("ann", for: "u-1", idToken: Fixtures.idToken()))
    }
}
