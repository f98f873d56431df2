import Foundation
import SesameCore
import SesameFirebase
import SesameLocalAPI
import SesameTesting
import Testing

/// `FirebaseUsernameDirectory` against the emulator enforcing the security rules
/// docs/usernames.md asks projects to deploy (read from the page): the daemon's own calls work
/// under them, and another user's token cannot take or overwrite a name or details.
@Suite("Firebase username directory under the documented security rules")
struct FirebaseUsernameDirectoryRulesTests {
    static func uploadDocumentedRules(_ h: EmulatorHarness) async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/usernames.md"), encoding: .utf8)
        let section = try #require(page.range(of: "## Security rules"))
        let open = try #require(page.range(of: "```json\n", range: section.upperBound..<page.endIndex))
        let close = try #require(page.range(of: "```", range: open.upperBound..<page.endIndex))
        let rules = try JSONValue.parse(Array(page[open.upperBound..<close.lowerBound].utf8))
        let (status, body) = try await h.http.call(
            "PUT", "\(h.databaseBase)/.settings/rules.json?ns=demo-project-default-rtdb", json: rules,
            headers: [("Authorization", "Bearer owner")])
        #expect(status == 200, "\(body.jsonString)")
    }

    @Test("claim, details and release work for the owner; another user's token takes nothing")
    func ownerOnly() async throws {
        try await EmulatorHarness.with { h in
            try await Self.uploadDocumentedRules(h)
            let ann = try await h.auth.signUpAnonymously()
            let bob = try await h.auth.signUpAnonymously()
            let name = try #require(UsernameRules().validate("Ann.Lée").username)

            #expect(try await h.directory.claim(name.key, for: ann.uid, idToken: ann.idToken))
            #expect(try await h.directory.claim(name.key, for: bob.uid, idToken: bob.idToken) == false)
            #expect(try await h.directory.claim(name.key, for: ann.uid, idToken: ann.idToken), "again, one's own")
            #expect(try await h.directory.owner(of: name.key) == ann.uid)

            let details = UsernameDetails(username: name.name, email: "ann@example.com")
            try await h.directory.setDetails(details, of: ann.uid, idToken: ann.idToken)
            await #expect(throws: RemoteAuthError.self) {
                try await h.directory.setDetails(
                    UsernameDetails(username: "mallory", email: nil), of: ann.uid, idToken: bob.idToken)
            }
            #expect(try await h.directory.details(of: ann.uid) == details)

            // A raw delete with Bob's token is refused by the rules.
            let (status, _) = try await h.http.call(
                "DELETE",
                "\(h.databaseBase)/users/usernames/\(name.key).json?ns=demo-project-default-rtdb&auth=\(bob.idToken.rawValue)"
            )
            #expect(status == 401)
            try await h.directory.release(name.key, of: ann.uid, idToken: ann.idToken)
            #expect(try await h.directory.owner(of: name.key) == nil)
        }
    }

    @Test("of concurrent claims of one name under the rules, exactly one wins")
    func concurrentClaims() async throws {
        try await EmulatorHarness.with { h in
            try await Self.uploadDocumentedRules(h)
            let (wins, contenders) = try await h.raceForName("scooby")
            #expect(wins == 1)
            let owner = try await h.directory.owner(of: "scooby")
            #expect(contenders.contains { $0 == owner })
        }
    }
}
