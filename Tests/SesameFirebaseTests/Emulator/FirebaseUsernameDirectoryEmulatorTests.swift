import AsyncHTTPClient
import Foundation
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameLocalAPI
import SesameTesting
import Testing

/// `FirebaseUsernameDirectory` over real HTTP against the emulator's Realtime Database.
@Suite("Firebase username directory against the emulator")
struct FirebaseUsernameDirectoryEmulatorTests {
    @Test("claim, look up, release; a taken name stays taken")
    func claimAndRelease() async throws {
        try await EmulatorHarness.with { h in
            let ann = try await h.auth.signUpAnonymously()
            let bob = try await h.auth.signUpAnonymously()
            let name = try #require(UsernameRules().validate("Ann.Lée").username)

            #expect(try await h.directory.owner(of: name.key) == nil)
            #expect(try await h.directory.claim(name.key, for: ann.uid, idToken: ann.idToken))
            #expect(try await h.directory.owner(of: name.key) == ann.uid)
            #expect(try await h.directory.claim(name.key, for: bob.uid, idToken: bob.idToken) == false)
            #expect(
                try await h.directory.claim(name.key, for: ann.uid, idToken: ann.idToken),
                "claiming one's own name again")

            // Bob cannot release Ann's name.
            try await h.directory.release(name.key, of: bob.uid, idToken: bob.idToken)
            #expect(try await h.directory.owner(of: name.key) == ann.uid)

            try await h.directory.release(name.key, of: ann.uid, idToken: ann.idToken)
            #expect(try await h.directory.owner(of: name.key) == nil)
            #expect(try await h.directory.claim(name.key, for: bob.uid, idToken: bob.idToken))

            // The raw layout: a JSON string at /users/usernames/{key}, in the default namespace.
            let (status, raw) = try await h.http.call(
                "GET", "\(h.databaseBase)/users/usernames/\(name.key).json?ns=demo-project-default-rtdb")
            #expect(status == 200 && raw == .string(bob.uid))
        }
    }

    @Test("of many concurrent claims of one name, exactly one wins")
    func concurrentClaims() async throws {
        try await EmulatorHarness.with { h in
            let (wins, contenders) = try await h.raceForName("scooby")
            #expect(wins == 1)
            let owner = try await h.directory.owner(of: "scooby")
            #expect(contenders.contains { $0 == owner })
        }
    }

    @Test("adapters over a caller-owned HTTPClient")
    func sharedClient() async throws {
        try await EmulatorHarness.with { h in
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: AsyncHTTPClientTransport.clientConfiguration(for: h.configuration)
            )
            do {
                let auth = FirebaseAuthProvider(configuration: h.configuration, httpClient: client)
                let directory = try #require(
                    FirebaseUsernameDirectory(configuration: h.configuration, httpClient: client))
                let session = try await auth.signUpAnonymously()
                #expect(try await directory.claim("shared", for: session.uid, idToken: session.idToken))
                #expect(try await h.directory.owner(of: "shared") == session.uid)
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    @Test("details: write, read, overwrite")
    func details() async throws {
        try await EmulatorHarness.with { h in
            let ann = try await h.auth.signUpAnonymously()
            #expect(try await h.directory.details(of: ann.uid) == nil)
            try await h.directory.setDetails(
                UsernameDetails(username: "Ann.Lée", email: "ann@example.com"), of: ann.uid, idToken: ann.idToken)
            #expect(
                try await h.directory.details(of: ann.uid)
                    == UsernameDetails(username: "Ann.Lée", email: "ann@example.com"))
            try await h.directory.setDetails(
                UsernameDetails(username: "Ann.Lée", email: nil), of: ann.uid, idToken: ann.idToken)
            #expect(try await h.directory.details(of: ann.uid) == UsernameDetails(username: "Ann.Lée", email: nil))
        }
    }

    @Test("keys with non-ASCII letters and commas round-trip through the URL")
    func unicodeKeys() async throws {
        try await EmulatorHarness.with { h in
            let ann = try await h.auth.signUpAnonymously()
            for typed in ["Straße", "東京たワー", "ann.lee.", "Иван"] {
                let key = try #require(UsernameRules().validate(typed).username?.key)
                #expect(try await h.directory.claim(key, for: ann.uid, idToken: ann.idToken), "\(typed)")
                #expect(try await h.directory.owner(of: key) == ann.uid, "\(typed)")
            }
            #expect(try await h.directory.owner(of: "strasse") == ann.uid)
        }
    }
}
