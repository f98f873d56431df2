import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase PostgREST subset: username directory, RLS, delete_user")
struct PostgRESTTests {
    @Test func claimLookUpAndRelease() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            let uid = try #require(session["user"]?["id"]?.stringValue)
            let access = session["access_token"]?.text
            #expect(try await emu.rest("POST", "rpc/username_owner", ["name_key": "ada"]).json == .null)
            let claim = try await emu.rest(
                "POST", "usernames", ["key": "ada", "uid": .string(uid)], bearer: access, prefer: "return=minimal")
            #expect(claim.status == 201)
            #expect(claim.bytes.isEmpty)
            let owner = try await emu.rest("POST", "rpc/username_owner", ["name_key": "ada"])
            #expect(owner.status == 200)
            #expect(owner.json == .string(uid))
            // A table read shows the caller its own rows only; anon sees none.
            #expect(try await emu.rest("GET", "usernames?key=eq.ada&select=uid").json == [])
            #expect(try await emu.rest("GET", "usernames?select=uid", bearer: access).json == [["uid": .string(uid)]])
            let taken = try await emu.rest(
                "POST", "usernames", ["key": "ada", "uid": .string(uid)], bearer: access, prefer: "return=minimal")
            #expect(taken.status == 409)
            #expect(taken.json["code"] == "23505")
            #expect(taken.json["details"] == "Key (key)=(ada) already exists.")
            #expect(taken.json["hint"] == .null)
            let release = try await emu.rest("DELETE", "usernames?key=eq.ada&uid=eq.\(uid)", bearer: access)
            #expect(release.status == 204)
            #expect(try await emu.rest("POST", "rpc/username_owner", ["name_key": "ada"]).json == .null)
            #expect(try await emu.rest("DELETE", "usernames?key=eq.ada&uid=eq.\(uid)", bearer: access).status == 204)
        }
    }

    @Test func rowLevelSecurityRefusesForeignUidsAndOthersRows() async throws {
        try await SupabaseTestEmulator.with { emu in
            let alice = try await emu.anonymousSession(), bob = try await emu.anonymousSession()
            let aliceId = try #require(alice["user"]?["id"]?.stringValue)
            let foreign = try await emu.rest(
                "POST", "usernames", ["key": "x", "uid": .string(aliceId)], bearer: bob["access_token"]?.text)
            #expect(foreign.status == 403)
            #expect(foreign.json["code"] == "42501")
            let anon = try await emu.rest("POST", "usernames", ["key": "x", "uid": .string(aliceId)])
            #expect(anon.status == 401)
            #expect(anon.json["code"] == "42501")
            _ = try await emu.rest(
                "POST", "usernames", ["key": "a", "uid": .string(aliceId)], bearer: alice["access_token"]?.text)
            // Bob's delete matches no row he may delete: 204 and the row stays.
            #expect(
                try await emu.rest("DELETE", "usernames?key=eq.a&uid=eq.\(aliceId)", bearer: bob["access_token"]?.text)
                    .status == 204)
            #expect(try await emu.rest("POST", "rpc/username_owner", ["name_key": "a"]).json == .string(aliceId))
            // service_role bypasses RLS.
            let service = try await emu.rest(
                "POST", "usernames", ["key": "s", "uid": .string(aliceId)], bearer: emu.serviceKey)
            #expect(service.status == 201)
        }
    }

    @Test func detailsUpsert() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            let uid = try #require(session["user"]?["id"]?.stringValue)
            let access = session["access_token"]?.text
            let prefer = "resolution=merge-duplicates,return=minimal"
            let row: JSONValue = ["uid": .string(uid), "username": "Ada", "email": .null]
            #expect(try await emu.rest("POST", "username_details", row, bearer: access, prefer: prefer).status == 201)
            let update: JSONValue = ["uid": .string(uid), "username": "Ada L", "email": "ada@example.com"]
            #expect(
                try await emu.rest("POST", "username_details", update, bearer: access, prefer: prefer).status == 201)
            let details = try await emu.rest("POST", "rpc/username_details_of", ["user_id": .string(uid)])
            #expect(details.json == [["username": "Ada L", "email": "ada@example.com"]])
            let plain = try await emu.rest("POST", "username_details", update, bearer: access, prefer: "return=minimal")
            #expect(plain.status == 409)
            let shown = try await emu.rest(
                "POST", "username_details", update, bearer: access,
                prefer: "resolution=merge-duplicates,return=representation")
            #expect(shown.status == 201)
            #expect(shown.json == [["uid": .string(uid), "username": "Ada L", "email": "ada@example.com"]])
            let bad = try await emu.rest("GET", "username_details?uid=eq.not-a-uuid")
            #expect(bad.status == 400)
            #expect(bad.json["code"] == "22P02")
            let badLookup = try await emu.rest("POST", "rpc/username_details_of", ["user_id": "not-a-uuid"])
            #expect(badLookup.status == 400)
            #expect(badLookup.json["code"] == "22P02")
        }
    }

    @Test func deleteUserFunctionDeletesTheCallerAndCascades() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            let uid = try #require(session["user"]?["id"]?.stringValue)
            let access = session["access_token"]?.text
            _ = try await emu.rest("POST", "usernames", ["key": "gone", "uid": .string(uid)], bearer: access)
            #expect(try await emu.rest("POST", "rpc/delete_user", [:]).status == 401)
            #expect(try await emu.rest("POST", "rpc/delete_user", [:], bearer: access).status == 204)
            #expect(try await emu.rest("POST", "rpc/username_owner", ["name_key": "gone"]).json == .null)
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: access).goTrueCode == "user_not_found")
            let orphan = try await emu.rest("POST", "usernames", ["key": "again", "uid": .string(uid)], bearer: access)
            #expect(orphan.status == 409)
            #expect(orphan.json["code"] == "23503")
        }
    }

    @Test("nobody lists the directory: each caller reads its own rows; the lookups take one key or uid")
    func lookupsWithoutListing() async throws {
        try await SupabaseTestEmulator.with { emu in
            let alice = try await emu.anonymousSession(), bob = try await emu.anonymousSession()
            let aliceId = try #require(alice["user"]?["id"]?.stringValue)
            let aliceToken = alice["access_token"]?.text, bobToken = bob["access_token"]?.text
            _ = try await emu.rest("POST", "usernames", ["key": "alice", "uid": .string(aliceId)], bearer: aliceToken)
            let row: JSONValue = ["uid": .string(aliceId), "username": "Alice", "email": "alice@example.com"]
            _ = try await emu.rest("POST", "username_details", row, bearer: aliceToken)
            for table in ["usernames", "username_details"] {
                #expect(try await emu.rest("GET", "\(table)?select=*").json == [])
                #expect(try await emu.rest("GET", "\(table)?select=*", bearer: bobToken).json == [])
                #expect(try await emu.rest("GET", "\(table)?select=*", bearer: aliceToken).json.arrayValue?.count == 1)
                #expect(
                    try await emu.rest("GET", "\(table)?select=*", bearer: emu.serviceKey).json.arrayValue?.count == 1)
            }
            // GET works for these stable functions too, with the arguments in the query.
            #expect(try await emu.rest("GET", "rpc/username_owner?name_key=alice").json == .string(aliceId))
            #expect(
                try await emu.rest("POST", "rpc/username_details_of", ["user_id": .string(aliceId)], bearer: bobToken)
                    .json == [["username": "Alice", "email": "alice@example.com"]])
            #expect(
                try await emu.rest(
                    "POST", "rpc/username_details_of", ["user_id": .string(bob["user"]?["id"]?.stringValue ?? "")]
                ).json == [])
            let wrong = try await emu.rest("POST", "rpc/username_owner", ["key": "alice"])
            #expect(wrong.status == 404)
            #expect(wrong.json["code"] == "PGRST202")
            #expect(
                wrong.json["message"] == "Could not find the function public.username_owner(key) in the schema cache")
        }
    }

    @Test func undeployedFunctionAndUnknownTable() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, deleteFunction: nil)) { emu in
            let access = try await emu.anonymousSession()["access_token"]?.text
            let missing = try await emu.rest("POST", "rpc/delete_user", [:], bearer: access)
            #expect(missing.status == 404)
            #expect(missing.json["code"] == "PGRST202")
            let table = try await emu.rest("GET", "profiles")
            #expect(table.status == 404)
            #expect(table.json["code"] == "PGRST205")
        }
    }

    @Test func jwtChecks() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, jwtExpirySeconds: 60)) { emu in
            let malformed = try await emu.rest("GET", "usernames", bearer: "garbage")
            #expect(malformed.status == 401)
            #expect(malformed.json["code"] == "PGRST301")
            let forged = SupabaseJWT(secret: String(repeating: "y", count: 40)).sign(["role": "service_role"])
            #expect(try await emu.rest("GET", "usernames", bearer: forged).json["code"] == "PGRST301")
            let access = try await emu.anonymousSession()["access_token"]?.text
            emu.time.advance(seconds: 61)
            let expired = try await emu.rest("GET", "usernames", bearer: access)
            #expect(expired.status == 401)
            #expect(expired.json["code"] == "PGRST303")
        }
    }
}
