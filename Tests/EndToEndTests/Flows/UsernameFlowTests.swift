import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Usernames on each backend (issue 9, item 6): set, sign in by username, released on delete.
@Suite("flows: usernames", .serialized, .timeLimit(.minutes(3)))
struct UsernameFlowTests {
    @Test(
        "a username is set, signs in in any case keeping the display case, is renamed and released on delete",
        arguments: TestBackend.allCases)
    func setSignInRelease(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend, settings: ["merge": ["hold": "0"]]) { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let account = try await client.createAccount(email: "fan@example.com", password: "secret12")
            let uid = try #require(account.user?.uid)

            let set = try await daemon.ctl(["username", "set", "NASA_Fan"])
            #expect(set.status == 0, "\(set.stderr)")
            #expect(try await client.state().user?.username == "NASA_Fan")
            #expect(try await emulator.usernameOwner("nasa_fan") == uid)
            let record = try await emulator.usernameDetails(uid)
            #expect(record.username == "NASA_Fan" && record.email == "fan@example.com")

            _ = try await client.signOut()
            let signIn = try await daemon.ctl(["sign-in", "nasa_fan", "--password-stdin"], stdin: "secret12\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            #expect(try await client.state().user?.uid == uid)
            _ = try await client.signOut()
            let viaClient = try await client.signIn(identifier: "Nasa_FAN", password: "secret12")
            #expect(viaClient.state.user?.uid == uid)
            #expect(viaClient.state.user?.username == "NASA_Fan")

            let renamed = try await client.setUsername("Ann.Lee")
            #expect(renamed.user?.username == "Ann.Lee")
            #expect(try await emulator.usernameOwner("ann,lee") == uid)
            #expect(try await emulator.usernameOwner("nasa_fan") == nil)
            #expect(try await client.checkUsername("NASA_Fan").available)  // the old name was released

            _ = try await client.deleteAccount()
            #expect(try await emulator.usernameOwner("ann,lee") == nil)
            #expect(try await emulator.usernameDetails(uid).email == nil)  // no longer published
            #expect(try await !emulator.accountExists(uid))
            // The name is free for someone else.
            _ = try await client.createAccount(email: "next@example.com", password: "secret12", username: "Ann.Lee")
            #expect(try await emulator.usernameOwner("ann,lee") == (try await client.state().user?.uid))
        }
    }

    @Test(
        "an email changed at the backend behind the daemon's back: reload shows it, the username record follows",
        arguments: TestBackend.allCases)
    func emailChangedElsewhere(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let account = try await client.createAccount(
                email: "old@example.com", password: "secret12", username: "Mover")
            let uid = try #require(account.user?.uid)
            #expect(try await emulator.usernameDetails(uid).email == "old@example.com")

            try await emulator.changeEmailAtBackend(uid, to: "new@example.com")
            let reloaded = try await client.reload()
            #expect(reloaded.user?.uid == uid)
            #expect(reloaded.user?.email == "new@example.com")
            #expect(reloaded.user?.username == "Mover")
            // The daemon brings the directory's record in step through a durable step.
            try await eventually("the username record names the new email") {
                try await emulator.usernameDetails(uid).email == "new@example.com"
            }
            _ = try await client.signOut()
            let signIn = try await client.signIn(identifier: "mover", password: "secret12")
            #expect(signIn.state.user?.uid == uid)
            #expect(signIn.state.user?.email == "new@example.com")
        }
    }
}
