import Foundation
import SesameCore
import SesameLocalAPI
import SesameSupabase
import SesameTesting
import Testing

/// Supabase-only behaviour of the adapter, over real HTTP against the emulator's Supabase
/// surface: rotation and reuse detection, server-side sign-out, the delete function, the
/// PostgREST username directory, links, rate limits.
@Suite("Supabase adapter against the Supabase emulator")
struct SupabaseEmulatorTests {
    @Test("refresh tokens rotate; replaying an old one ends the session (reuse detection)")
    func rotation() async throws {
        try await SupabaseConformanceBackend.with(arguments: ["--supabase-refresh-reuse-interval", "0"]) { b in
            let guest = try await b.supabase.signUpAnonymously()
            let first = try await b.supabase.refresh(guest.refreshToken)
            #expect(first.refreshToken != guest.refreshToken && first.uid == guest.uid)
            let second = try await b.supabase.refresh(first.refreshToken)
            #expect(second.refreshToken != first.refreshToken)
            // Two generations old: reuse.
            await #expect(throws: RemoteAuthError.accountGone(.sessionRevoked)) {
                _ = try await b.supabase.refresh(guest.refreshToken)
            }
            #expect(try await b.calls()["token"] ?? 0 >= 3)
        }
    }

    @Test("sign-out revokes the session at the server: its refresh token and access token stop working")
    func revokeSession() async throws {
        try await SupabaseConformanceBackend.with { b in
            let guest = try await b.supabase.signUpAnonymously()
            try await b.supabase.revokeSession(guest.idToken)
            await #expect(throws: RemoteAuthError.accountGone(.sessionRevoked)) {
                _ = try await b.supabase.refresh(guest.refreshToken)
            }
            await #expect(throws: RemoteAuthError.accountGone(.sessionRevoked)) {
                _ = try await b.supabase.lookup(guest.idToken)
            }
            // Revoking again is not an error: the session is gone either way.
            try await b.supabase.revokeSession(guest.idToken)
        }
    }

    @Test("without the delete function, deleting is operation-not-allowed saying what to deploy; nothing changes")
    func deleteFunctionMissing() async throws {
        try await SupabaseConformanceBackend.with(arguments: ["--supabase-delete-function", "none"]) { b in
            let guest = try await b.supabase.signUpAnonymously()
            let refusal = await #expect(throws: RemoteAuthError.self) {
                try await b.supabase.deleteAccount(guest.idToken)
            }
            #expect(refusal?.isTransient == false)
            let authError = try #require(refusal?.authError)
            #expect(authError.reason == .operationNotAllowed)
            #expect(authError.message.contains("delete_user") && authError.message.contains("docs/providers.md"))
            #expect(try await b.supabase.lookup(guest.idToken).uid == guest.uid)
        }
    }

    @Test("a sign-in link from the email signs in by its hashed token")
    func signInByLink() async throws {
        try await SupabaseConformanceBackend.with { b in
            try await b.supabase.sendSignInLink(email: "link@example.com", continueUrl: "http://localhost/done")
            let link = try await b.emailSignInLink(for: "link@example.com")
            let result = try await b.supabase.signIn(email: "link@example.com", proof: .link(link), linkingTo: nil)
            let user = try await b.supabase.lookup(result.idToken)
            #expect(user.email == "link@example.com" && user.emailVerified && !user.isAnonymous)
        }
    }

    @Test("anonymous sign-ins disabled: operation-not-allowed saying what to enable")
    func anonymousDisabled() async throws {
        try await SupabaseConformanceBackend.with(arguments: ["--supabase-anonymous", "false"]) { b in
            let refusal = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.signUpAnonymously()
            }
            #expect(refusal?.isTransient == false)
            let authError = try #require(refusal?.authError)
            #expect(authError.reason == .operationNotAllowed && authError.message.contains("enable"))
        }
    }

    @Test("429 is rate limited (transient) and the session survives it")
    func rateLimited() async throws {
        try await SupabaseConformanceBackend.with { b in
            let guest = try await b.supabase.signUpAnonymously()
            try await b.helper.faults(
                b.url, ["failNext": 1, "failStatus": 429, "failMessage": "over_request_rate_limit"])
            let refusal = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.refresh(guest.refreshToken)
            }
            #expect(refusal?.authError.reason == .tooManyRequests && refusal?.isTransient == true)
            #expect(try await b.supabase.refresh(guest.refreshToken).uid == guest.uid)
        }
    }

    @Test("username directory over PostgREST: claim, owner, details, release; a taken key is refused")
    func directory() async throws {
        try await SupabaseConformanceBackend.with { b in
            let ann = try await b.supabase.signUp(email: "ann@example.com", password: "secret-123", linkingTo: nil)
            let bob = try await b.supabase.signUp(email: "bob@example.com", password: "secret-123", linkingTo: nil)
            #expect(try await b.directory.owner(of: "ann,lee") == nil)
            #expect(try await b.directory.claim("ann,lee", for: ann.uid, idToken: ann.idToken))
            #expect(try await b.directory.claim("ann,lee", for: ann.uid, idToken: ann.idToken))  // a retry is ours
            #expect(try await !b.directory.claim("ann,lee", for: bob.uid, idToken: bob.idToken))
            #expect(try await b.directory.owner(of: "ann,lee") == ann.uid)
            try await b.directory.setDetails(
                UsernameDetails(username: "Ann.Lee", email: "ann@example.com"), of: ann.uid, idToken: ann.idToken)
            try await b.directory.setDetails(
                UsernameDetails(username: "Ann.Lee", email: nil), of: ann.uid, idToken: ann.idToken)
            #expect(try await b.directory.details(of: ann.uid) == UsernameDetails(username: "Ann.Lee", email: nil))
            #expect(try await b.directory.details(of: bob.uid) == nil)
            // Only the holder's release removes the name.
            try await b.directory.release("ann,lee", of: bob.uid, idToken: bob.idToken)
            #expect(try await b.directory.owner(of: "ann,lee") == ann.uid)
            try await b.directory.release("ann,lee", of: ann.uid, idToken: ann.idToken)
            #expect(try await b.directory.owner(of: "ann,lee") == nil)
        }
    }

    @Test("two racing claims of one name: exactly one wins", arguments: 0..<5)
    func race(_ round: Int) async throws {
        try await SupabaseConformanceBackend.with { b in
            let ann = try await b.supabase.signUpAnonymously()
            let bob = try await b.supabase.signUpAnonymously()
            async let first = b.directory.claim("race\(round)", for: ann.uid, idToken: ann.idToken)
            async let second = b.directory.claim("race\(round)", for: bob.uid, idToken: bob.idToken)
            let wins = try await [first, second].filter { $0 }.count
            #expect(wins == 1)
        }
    }
}
