import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: GET /admin/users newest first, paged, with GoTrue's pagination headers")
struct GoTrueListUsersTests {
    /// Creates `count` users one second apart; returns their emails, oldest first.
    private func createUsers(_ emu: SupabaseTestEmulator, _ count: Int) async throws -> [String] {
        var emails: [String] = []
        for index in 0..<count {
            let email = "listed-\(index)@example.com"
            let created = try await emu.admin("POST", "users", ["email": .string(email), "email_confirm": true])
            #expect(created.status == 200, "\(created.json.jsonString)")
            emails.append(email)
            emu.time.advance(seconds: 1)
        }
        return emails
    }

    private func emails(_ answer: HTTPAnswer) -> [String] {
        answer.json["users"]?.arrayValue?.compactMap { $0["email"]?.stringValue } ?? []
    }

    @Test func pagesAreNewestFirstWithTotalAndLinks() async throws {
        try await SupabaseTestEmulator.with { emu in
            let created = try await createUsers(emu, 5)
            let first = try await emu.admin("GET", "users?page=1&per_page=2")
            #expect(first.status == 200)
            #expect(emails(first) == [created[4], created[3]])
            #expect(first.json["aud"] == "authenticated")
            #expect(first.header("x-total-count") == "5")
            #expect(
                first.header("link")
                    == "</auth/v1/admin/users?page=2&per_page=2>; rel=\"next\", "
                    + "</auth/v1/admin/users?page=3&per_page=2>; rel=\"last\"")
            let last = try await emu.admin("GET", "users?page=3&per_page=2")
            #expect(emails(last) == [created[0]])
            #expect(last.header("link") == "</auth/v1/admin/users?page=3&per_page=2>; rel=\"last\"")
            let beyond = try await emu.admin("GET", "users?page=9&per_page=2")
            #expect(emails(beyond).isEmpty)
            #expect(beyond.header("x-total-count") == "5")
        }
    }

    @Test func theDefaultPageHoldsFiftyUsers() async throws {
        try await SupabaseTestEmulator.with { emu in
            for index in 0..<51 {
                _ = try await emu.admin("POST", "users", ["email": .string("many-\(index)@example.com")])
            }
            let page = try await emu.admin("GET", "users")
            #expect(page.json["users"]?.arrayValue?.count == 50)
            #expect(page.header("x-total-count") == "51")
            #expect(page.header("link")?.contains("page=2>; rel=\"next\"") == true)
        }
    }

    @Test func badPaginationParametersAreValidationFailures() async throws {
        try await SupabaseTestEmulator.with { emu in
            for query in ["page=x", "per_page=-1", "per_page=0"] {
                let answer = try await emu.admin("GET", "users?\(query)")
                #expect(answer.status == 400, "\(query)")
                #expect(answer.goTrueCode == "validation_failed", "\(query)")
            }
        }
    }
}
