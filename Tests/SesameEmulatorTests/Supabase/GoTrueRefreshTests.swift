import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: refresh-token rotation, reuse interval, family revocation")
struct GoTrueRefreshTests {
    @Test func refreshRotatesAndKeepsTheSession() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            let first = try #require(session["refresh_token"]?.stringValue)
            let answer = try await emu.refresh(first)
            #expect(answer.status == 200)
            let second = try #require(answer.json["refresh_token"]?.stringValue)
            #expect(second != first)
            #expect(answer.json["user"]?["id"] == session["user"]?["id"])
            let before = SupabaseTestEmulator.claims(session["access_token"])
            let after = SupabaseTestEmulator.claims(answer.json["access_token"])
            #expect(after["session_id"] == before["session_id"])
            #expect(after["amr"] == before["amr"])
        }
    }

    @Test func replayingTheParentOfTheActiveTokenGivesTheActiveTokenAtAnyTime() async throws {
        try await SupabaseTestEmulator.with { emu in
            let first = try #require(try await emu.anonymousSession()["refresh_token"]?.stringValue)
            let second = try #require(try await emu.refresh(first).json["refresh_token"]?.stringValue)
            emu.time.advance(seconds: 3600)
            let replay = try await emu.refresh(first)
            #expect(replay.status == 200)
            #expect(replay.json["refresh_token"]?.stringValue == second)
            // Nothing new was issued: the active token still rotates normally.
            let third = try await emu.refresh(second)
            #expect(third.status == 200)
            #expect(third.json["refresh_token"]?.stringValue != second)
        }
    }

    @Test func anOlderTokenIsAcceptedInsideTheReuseIntervalOnly() async throws {
        try await SupabaseTestEmulator.with { emu in
            let t1 = try #require(try await emu.anonymousSession()["refresh_token"]?.stringValue)
            let t2 = try #require(try await emu.refresh(t1).json["refresh_token"]?.stringValue)
            let t3 = try #require(try await emu.refresh(t2).json["refresh_token"]?.stringValue)
            // t1 is two generations old but was revoked less than 10 s ago.
            emu.time.advance(seconds: 5)
            let inside = try await emu.refresh(t1)
            #expect(inside.status == 200)
            #expect(inside.json["refresh_token"]?.stringValue != t3)
            // Past the interval: t2 (not the parent of the now active token) is reuse; the
            // whole family is revoked.
            emu.time.advance(seconds: 20)
            let outside = try await emu.refresh(t2)
            #expect(outside.status == 400)
            #expect(outside.goTrueCode == "refresh_token_already_used")
            #expect(outside.json["msg"] == "Invalid Refresh Token: Already Used")
            emu.time.advance(seconds: 20)
            let family = try await emu.refresh(inside.json["refresh_token"]?.text)
            #expect(family.goTrueCode == "refresh_token_already_used")
            #expect(try await emu.refresh(t3).goTrueCode == "refresh_token_already_used")
        }
    }

    @Test func withAZeroIntervalReuseIsDetectedAtOnceAndTheAccessTokenStillWorks() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, refreshReuseIntervalSeconds: 0)) {
            emu in
            let session = try await emu.anonymousSession()
            let t1 = try #require(session["refresh_token"]?.stringValue)
            let t2 = try #require(try await emu.refresh(t1).json["refresh_token"]?.stringValue)
            let t3 = try #require(try await emu.refresh(t2).json["refresh_token"]?.stringValue)
            emu.time.advance(seconds: 1)
            #expect(try await emu.refresh(t1).goTrueCode == "refresh_token_already_used")
            emu.time.advance(seconds: 1)
            #expect(try await emu.refresh(t3).goTrueCode == "refresh_token_already_used")
            // v1 family revocation keeps the session (errata G.3).
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: session["access_token"]?.text).status == 200)
        }
    }

    @Test func malformedAndUnknownTokens() async throws {
        try await SupabaseTestEmulator.with { emu in
            let missing = try await emu.refresh(nil)
            #expect(missing.status == 400)
            #expect(missing.goTrueCode == "validation_failed")
            #expect(try await emu.refresh("not a token").goTrueCode == "validation_failed")
            let unknown = try await emu.refresh("abcdefghijkl")
            #expect(unknown.status == 400)
            #expect(unknown.goTrueCode == "refresh_token_not_found")
        }
    }

    @Test func signOutEndsTheSessionForRefreshAndForGoTrue() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            let access = session["access_token"]?.text
            #expect(try await emu.call("POST", "/auth/v1/logout?scope=local", bearer: access).status == 204)
            #expect(try await emu.refresh(session["refresh_token"]?.text).goTrueCode == "refresh_token_not_found")
            let user = try await emu.call("GET", "/auth/v1/user", bearer: access)
            #expect(user.status == 403)
            #expect(user.goTrueCode == "session_not_found")
        }
    }
}
