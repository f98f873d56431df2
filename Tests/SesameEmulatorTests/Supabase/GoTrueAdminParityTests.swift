import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Where the emulator's GoTrue answered otherwise than GoTrue does (issue 33), each pinned to the
/// source it follows in supabase/auth: internal/api/admin.go (`loadUser`, `loadFactor`,
/// `adminUserCreate`, the `/admin/users/{user_id}/factors` routes of api.go), sorting.go,
/// models/user.go (`FindUsersInAudience`'s filter) and logout.go.
@Suite("Supabase GoTrue: the admin factor endpoints and GoTrue's own refusals")
struct GoTrueAdminParityTests {
    private func message(_ answer: HTTPAnswer) -> String? {
        (answer.json["msg"] ?? answer.json["message"])?.stringValue
    }

    @Test("GET/PUT/DELETE /admin/users/{id}/factors: list, rename and delete a verified factor without AAL2")
    func adminFactors() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("factors@example.com")
            let access = session["access_token"]?.text
            let id = try #require(session["user"]?["id"]?.stringValue)
            #expect(try await emu.admin("GET", "users/\(id)/factors").json == .array([]))
            let (factor, totp, _) = try await GoTrueMFATests.enroll(emu, access)
            let verified = try await GoTrueMFATests.verify(
                emu, access, factor, code: totp.code(at: GoTrueMFATests.date(emu)))
            #expect(verified.status == 200, "\(verified.json.jsonString)")

            let listed = try await emu.admin("GET", "users/\(id)/factors")
            #expect(listed.status == 200)
            #expect(listed.json.arrayValue?.map { $0["id"]?.stringValue } == [factor])
            #expect(listed.json.arrayValue?.first?["status"] == "verified")
            #expect(listed.json.jsonString.contains(totp.base32) == false)

            let renamed = try await emu.admin("PUT", "users/\(id)/factors/\(factor)", ["friendly_name": "laptop"])
            #expect(renamed.status == 200 && renamed.json["friendly_name"] == "laptop")

            // The service role deletes a verified factor with no AAL2 session (the user's own
            // unenrolment needs one); the answer is the factor.
            let deleted = try await emu.admin("DELETE", "users/\(id)/factors/\(factor)")
            #expect(deleted.status == 200)
            #expect(deleted.json["id"]?.stringValue == factor && deleted.json["friendly_name"] == "laptop")
            #expect(try await emu.admin("GET", "users/\(id)/factors").json == .array([]))
            let user = try await emu.call("GET", "/auth/v1/user", bearer: access).json
            #expect(user["factors"] == nil)
        }
    }

    @Test(
        "loadUser and loadFactor: a malformed id is a 404 validation_failed, an unknown one user_not_found or mfa_factor_not_found"
    )
    func adminRefusalsAre404s() async throws {
        try await SupabaseTestEmulator.with { emu in
            let malformed = try await emu.admin("GET", "users/not-a-uuid")
            #expect(malformed.status == 404 && malformed.goTrueCode == "validation_failed")
            #expect(message(malformed) == "user_id must be an UUID")
            let unknownUser = try await emu.admin("GET", "users/\(UUID().uuidString.lowercased())/factors")
            #expect(unknownUser.status == 404 && unknownUser.goTrueCode == "user_not_found")
            #expect(message(unknownUser) == "User not found")
            let session = try await emu.passwordSession("nofactor@example.com")
            let id = try #require(session["user"]?["id"]?.stringValue)
            let badFactor = try await emu.admin("DELETE", "users/\(id)/factors/nope")
            #expect(badFactor.status == 404 && badFactor.goTrueCode == "validation_failed")
            #expect(message(badFactor) == "factor_id must be an UUID")
            let noFactor = try await emu.admin("DELETE", "users/\(id)/factors/\(UUID().uuidString)")
            #expect(noFactor.status == 404 && noFactor.goTrueCode == "mfa_factor_not_found")
        }
    }

    @Test("POST /admin/users with neither email nor phone: GoTrue's words")
    func createWithoutEmailOrPhone() async throws {
        try await SupabaseTestEmulator.with { emu in
            let refused = try await emu.admin("POST", "users", ["password": "secret-pw"])
            #expect(refused.status == 400 && refused.goTrueCode == "validation_failed")
            #expect(message(refused) == "Cannot create a user without either an email or phone")
        }
    }

    @Test("GET /admin/users: sort=created_at asc|desc, bad sort parameters, filter on email or full_name")
    func listSortAndFilter() async throws {
        try await SupabaseTestEmulator.with { emu in
            for (email, name) in [("ann@example.com", "Ann Smith"), ("bob@example.com", "Bob"), ("cy@other.org", "Cy")]
            {
                _ = try await emu.admin(
                    "POST", "users", ["email": .string(email), "user_metadata": ["full_name": .string(name)]])
                emu.time.advance(seconds: 1)
            }
            func emails(_ query: String) async throws -> [String] {
                try await emu.admin("GET", "users?\(query)").json["users"]?.arrayValue?
                    .compactMap { $0["email"]?.stringValue } ?? []
            }
            #expect(
                try await emails("sort=created_at%20asc") == ["ann@example.com", "bob@example.com", "cy@other.org"])
            #expect(try await emails("sort=created_at") == ["cy@other.org", "bob@example.com", "ann@example.com"])
            #expect(try await emails("filter=example.com") == ["bob@example.com", "ann@example.com"])
            // full_name is compared in any case (ILIKE); email as it is (LIKE).
            #expect(try await emails("filter=smith") == ["ann@example.com"])
            #expect(try await emails("filter=EXAMPLE") == [])
            let filtered = try await emu.admin("GET", "users?filter=example.com&per_page=1")
            #expect(filtered.header("x-total-count") == "2")
            let badField = try await emu.admin("GET", "users?sort=email")
            #expect(badField.status == 400 && badField.goTrueCode == "validation_failed")
            #expect(message(badField) == "Bad Sort Parameters: bad field for sort 'email'")
            let badDirection = try await emu.admin("GET", "users?sort=created_at%20up")
            #expect(
                message(badDirection)
                    == "Bad Sort Parameters: bad direction for sort 'up', only 'asc' and 'desc' allowed")
        }
    }

    @Test("POST /logout: the bearer is checked before the scope; an empty scope is global; GoTrue's words for another")
    func logoutScopes() async throws {
        try await SupabaseTestEmulator.with { emu in
            let unauthenticated = try await emu.call("POST", "/auth/v1/logout?scope=everything")
            #expect(unauthenticated.status == 401 || unauthenticated.status == 403)
            #expect(unauthenticated.goTrueCode == "no_authorization")
            let session = try await emu.passwordSession("logout@example.com")
            let bogus = try await emu.call(
                "POST", "/auth/v1/logout?scope=everything", bearer: session["access_token"]?.text)
            #expect(bogus.status == 400 && message(bogus) == "Unsupported logout scope \"everything\"")
            #expect(
                try await emu.call("POST", "/auth/v1/logout?scope=", bearer: session["access_token"]?.text).status
                    == 204)
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: session["access_token"]?.text).status != 200)
        }
    }
}
