import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 21, account security end to end: password and email changes, password reset
/// confirmation and reauthentication, on both backends.
@Suite("account security end to end", .serialized, .timeLimit(.minutes(3)))
struct AccountSecurityTests {
    typealias Support = SecondFactorTestSupport

    @Test("change the password, then sign in with the new one only", arguments: TestBackend.allCases)
    func changePassword(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let email = "pw-change@example.com"
            let uid = try await Support.createAccount(email, on: daemon, at: emulator)
            try await daemon.rpcError("weak-password", "changePassword", ["newPassword": "123"])
            #expect(try await daemon.rpc("changePassword", ["newPassword": "a-newer-secret-34"]) == .object([:]))
            #expect(try await daemon.wireState()["user"]?["uid"]?.stringValue == uid)
            _ = try await daemon.rpc("signOut")
            try await daemon.rpcError(
                "invalid-login-credentials", "signIn", ["identifier": .string(email), "password": "secret12"])
            let outcome = try await daemon.rpc(
                "signIn", ["identifier": .string(email), "password": "a-newer-secret-34"])
            #expect(outcome["state"]?["user"]?["uid"]?.stringValue == uid)
            for secret in ["a-newer-secret-34", "secret12"] { #expect(!daemon.log.contains(secret)) }
        }
    }

    @Test(
        "change the email: pending until its owner confirms, then the email, and the username record follows",
        arguments: TestBackend.allCases)
    func changeEmail(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let (old, new) = ("em-old@example.com", "em-new@example.com")
            let uid = try await Support.createAccount(old, username: "Em.Change", on: daemon, at: emulator)
            _ = try await emulator.createAccount(email: "taken@example.com", password: "secret12")
            try await daemon.rpcError("email-already-in-use", "changeEmail", ["newEmail": "taken@example.com"])

            let result = try await daemon.rpc("changeEmail", ["newEmail": .string(new)])
            #expect(result["pendingEmail"]?.stringValue == new)
            let pending = try await daemon.wireState()
            #expect(pending["user"]?["email"]?.stringValue == old)
            #expect(pending["user"]?["pendingEmail"]?.stringValue == new)

            if backend == .firebase {
                // Firebase revokes the account's tokens at an applied email change (`validSince`:
                // tokens issued before it, counted in whole seconds). A second later, the held
                // session is refused at its next use; the person signs in again with the new
                // address, and the daemon, which remembered the change, finishes it then.
                try await emulator.ageSignIns(bySeconds: 2)
                try await emulator.confirmEmailChange(from: old, to: new)
                // The session ends for what it is: the address changed (issue 31).
                let ended = try await daemon.rpcError("credentials-changed", "reload")
                #expect(ended?.message.contains(new) == true, "\(String(describing: ended))")
                #expect(ended?.data["email"]?.stringValue == new)
                try await daemon.waitForStatus("anonymous")
                let outcome = try await daemon.rpc("signIn", ["identifier": .string(new), "password": "secret12"])
                #expect(outcome["state"]?["user"]?["uid"]?.stringValue == uid)
                #expect(outcome["state"]?["user"]?["email"]?.stringValue == new)
                #expect(outcome["state"]?["user"]?["pendingEmail"] == .null)
            } else {
                // GoTrue keeps the session: a reload shows the confirmed address.
                try await emulator.confirmEmailChange(from: old, to: new)
                let reloaded = try await daemon.rpc("reload")
                #expect(reloaded["user"]?["uid"]?.stringValue == uid)
                #expect(reloaded["user"]?["email"]?.stringValue == new)
                #expect(reloaded["user"]?["pendingEmail"] == .null)
                _ = try await daemon.rpc("signOut")
            }
            try await eventually("the username record follows the address") {
                try await emulator.usernameDetails(uid).email == new
            }
            // The username signs in to the new address.
            if backend == .firebase { _ = try await daemon.rpc("signOut") }
            let outcome = try await daemon.rpc("signIn", ["identifier": "em.change", "password": "secret12"])
            #expect(outcome["state"]?["user"]?["email"]?.stringValue == new)
        }
    }

    @Test("complete a password reset from its link, with no session needed", arguments: TestBackend.allCases)
    func resetFromLink(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let email = "reset-link@example.com"
            let uid = try await Support.createAccount(email, on: daemon, at: emulator)
            _ = try await daemon.rpc("signOut")
            try await daemon.rpc("sendPasswordReset", ["identifier": .string(email)])
            let link = try await emulator.passwordResetProof(email)
            try await daemon.rpcError(
                "weak-password", "confirmPasswordReset", ["link": .string(link), "newPassword": "123"])
            let done = try await daemon.rpc(
                "confirmPasswordReset", ["link": .string(link), "newPassword": "reset-secret-56"])
            #expect(done["email"]?.stringValue == email)
            #expect(try await daemon.wireState()["status"]?.stringValue == "anonymous")
            let outcome = try await daemon.rpc("signIn", ["identifier": .string(email), "password": "reset-secret-56"])
            #expect(outcome["state"]?["user"]?["uid"]?.stringValue == uid)
            #expect(!daemon.log.contains(link) && !daemon.log.contains("reset-secret-56"))
        }
    }

    @Test("Supabase: complete a password reset from the mailed code")
    func resetFromCode() async throws {
        try await Support.withDaemon(.supabase) { emulator, daemon in
            let email = "reset-code@example.com"
            let uid = try await Support.createAccount(email, on: daemon, at: emulator)
            _ = try await daemon.rpc("signOut")
            try await daemon.rpc("sendPasswordReset", ["identifier": .string(email)])
            let code = try await emulator.passwordResetProof(email, code: true)
            try await daemon.rpcError(
                "invalid-action-code", "confirmPasswordReset",
                ["code": "000000", "email": .string(email), "newPassword": "reset-secret-78"])
            let done = try await daemon.rpc(
                "confirmPasswordReset",
                ["code": .string(code), "email": .string(email), "newPassword": "reset-secret-78"])
            #expect(done["email"]?.stringValue == email)
            let outcome = try await daemon.rpc("signIn", ["identifier": .string(email), "password": "reset-secret-78"])
            #expect(outcome["state"]?["user"]?["uid"]?.stringValue == uid)
        }
    }

    @Test("Firebase: an old sign-in is requires-recent-login; after reauthenticate the same call succeeds")
    func firebaseRecentLogin() async throws {
        try await Support.withDaemon(.firebase, emulatorArguments: ["--recent-login-seconds", "300"]) {
            emulator, daemon in
            let email = "recent-fb@example.com"
            let uid = try await Support.createAccount(email, on: daemon, at: emulator)
            try await emulator.ageSignIns(bySeconds: 600)
            try await daemon.rpcError("requires-recent-login", "changePassword", ["newPassword": "later-secret-90"])
            try await daemon.rpcError("operation-not-allowed", "reauthenticate")
            try await daemon.rpcError("invalid-login-credentials", "reauthenticate", ["password": "not-it-at-all"])
            let proof = try await daemon.rpc("reauthenticate", ["password": "secret12"])
            #expect(proof["validUntil"]?.stringValue != nil)
            try await daemon.rpc("changePassword", ["newPassword": "later-secret-90"])
            #expect(try await daemon.wireState()["user"]?["uid"]?.stringValue == uid)
            try await emulator.ageSignIns(bySeconds: 1200)
            try await daemon.rpcError("requires-recent-login", "deleteAccount")
            try await daemon.rpc("reauthenticate", ["password": "later-secret-90"])
            let after = try await daemon.rpc("deleteAccount")
            #expect(after["user"]?["uid"]?.stringValue != uid)
            #expect(try await !emulator.accountExists(uid))
        }
    }

    @Test("Supabase: an old session is requires-recent-login; a mailed code proves it, then the change succeeds")
    func supabaseReauthenticationCode() async throws {
        try await Support.withDaemon(.supabase, emulatorArguments: ["--supabase-secure-password-change", "true"]) {
            emulator, daemon in
            let email = "recent-sb@example.com"
            try await Support.createAccount(email, on: daemon, at: emulator)
            try await emulator.ageSignIns(bySeconds: 25 * 3600)
            try await daemon.rpcError("requires-recent-login", "changePassword", ["newPassword": "later-secret-91"])
            let sent = try await daemon.rpc("reauthenticate")
            #expect(sent["codeSent"] == .bool(true))
            let code = try await emulator.reauthenticationCode(email)
            try await daemon.rpc("reauthenticate", ["code": .string(code)])
            try await daemon.rpc("changePassword", ["newPassword": "later-secret-91"])
            _ = try await daemon.rpc("signOut")
            let outcome = try await daemon.rpc("signIn", ["identifier": .string(email), "password": "later-secret-91"])
            #expect(outcome["state"]?["status"]?.stringValue == "authenticated")
            #expect(!daemon.log.contains(code))
        }
    }
}
