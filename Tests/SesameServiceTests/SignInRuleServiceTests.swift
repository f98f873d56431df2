import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Issue 31, item 7: no way of signing in replaces an account signed in on this machine; the
/// person signs out first. A guest is merged, as before.
@Suite("SessionService: signing in while an account is signed in")
struct SignInRuleServiceTests {
    @Test(
        "password, email link, federated id token, device flow, custom token: each already-signed-in while an account is signed in; nothing changes, nothing reaches the backend"
    )
    func everyWayRefuses() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            _ = await harness.provider.addAccount(email: "two@example.com", password: "secret12")
            let account = try await harness.service.createAccount(email: "one@example.com", password: "secret12")
            let uid = try #require(account.user?.uid)
            _ = try await harness.service.sendSignInLink(email: "two@example.com", continueUrl: nil)
            let proof = try #require(await harness.provider.lastSignInProof(for: "two@example.com"))
            let before = await harness.service.state
            let attempts: [(String, () async throws(AuthError) -> Void)] = [
                (
                    "password",
                    { () async throws(AuthError) in
                        _ = try await harness.service.signIn(identifier: "two@example.com", password: "secret12")
                    }
                ),
                (
                    "email link",
                    { () async throws(AuthError) in
                        _ = try await harness.service.completeSignInLink(proof, email: "two@example.com")
                    }
                ),
                (
                    "federated id token",
                    { () async throws(AuthError) in
                        _ = try await harness.service.signInWithIdp(
                            providerId: "google.com", idToken: "erin", accessToken: nil)
                    }
                ),
                (
                    "device flow",
                    { () async throws(AuthError) in
                        _ = try await harness.service.startSignIn(harness.device())
                    }
                ),
                (
                    "custom token",
                    { () async throws(AuthError) in
                        _ = try await harness.service.signInWithCustomToken("custom:fleet-9")
                    }
                ),
            ]
            for (way, attempt) in attempts {
                let error = await failure(attempt)
                #expect(error == .alreadySignedIn, "\(way)")
            }
            #expect(await harness.service.state == before)
            #expect(await harness.service.state.user?.uid == uid)
            #expect(await harness.devices.starts == 0)
            #expect(await harness.provider.count("signInWithCustomToken") == 0)
            #expect(await harness.provider.count("signInWithPassword") == 0)
        }
    }

    @Test("the refusal says to sign out first; after signOut the same sign-in works (from the new guest: merged)")
    func signOutThenSignIn() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let second = await harness.provider.addAccount(email: "two@example.com", password: "secret12")
            let first = try #require(
                try await harness.service.createAccount(email: "one@example.com", password: "secret12").user?.uid)
            do throws(AuthError) {
                _ = try await harness.service.signIn(identifier: "two@example.com", password: "secret12")
                Issue.record("an account was replaced")
            } catch {
                #expect(error.reason == .alreadySignedIn)
                #expect(error.message.contains("sign out first"))
            }
            #expect(await harness.service.state.user?.uid == first)
            _ = try await harness.service.signOut(reset: false)
            let outcome = try await harness.service.signIn(identifier: "two@example.com", password: "secret12")
            #expect(outcome.state.user?.uid == second)
            #expect(await harness.provider.accounts[first] != nil, "signing out never deletes an account")
        }
    }
}
