import Foundation
import SesameClient
import SesameLocalAPI
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Federated sign-in and linking (issue 5) on Firebase: verified and unverified emails, bad
/// tokens, identities already in use.
@Suite("upgrade paths end to end: identity providers", .serialized, .timeLimit(.minutes(3)))
struct UpgradeFederatedTests {
    @Test("signInWithIdp with a verified email of a password account: merged into that account")
    func idpVerifiedEmailMerges() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "ivy@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            let (state, merge) = try await client.signInWithIdp(
                providerId: "google.com", idToken: claims(sub: "g-3", email: "ivy@example.com", verified: true))
            #expect(merge?.fromUid == guest)
            #expect(merge?.toUid == account)
            #expect(state.user?.uid == account)
            #expect(state.user?.providers.contains("google.com") == true)
        }
    }

    @Test("signInWithIdp with an unverified email of a password account: account-exists-with-different-credential")
    func idpNeedsConfirmation() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            _ = try await emulator.createAccount(email: "jo@example.com", password: "secret12")
            let before = try await client.state()
            let error = try await expectDaemonError("account-exists-with-different-credential", code: 1000) {
                _ = try await client.signInWithIdp(
                    providerId: "google.com", idToken: claims(sub: "g-4", email: "jo@example.com", verified: false))
            }
            #expect(error?.email == "jo@example.com")
            #expect(error?.providers == ["password"])
            let after = try await client.state()
            #expect(after.user?.uid == before.user?.uid)
            #expect(after.status == .anonymous)
            #expect(after.pendingMerges.isEmpty)
        }
    }

    @Test("an IdP token without sub: invalid-credential, nothing changes")
    func idpWithoutSub() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let before = try await client.state()
            try await expectDaemonError("invalid-credential", code: 1000) {
                _ = try await client.signInWithIdp(providerId: "google.com", idToken: #"{"email":"kim@example.com"}"#)
            }
            try await expectDaemonError("invalid-credential", code: 1000) {
                _ = try await client.linkCredential(
                    .federated(providerId: "apple.com", idToken: #"{"email":"kim@example.com"}"#, accessToken: nil))
            }
            #expect(try await client.state().user == before.user)
        }
    }

    @Test(
        "linkCredential federated from a guest: linked; then provider-already-linked; another's identity: credential-already-in-use"
    )
    func linkFederated() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            // Someone else's google.com identity.
            _ = try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
                json: [
                    "postBody": .string(
                        "providerId=google.com&id_token="
                            + formEncoded(claims(sub: "g-other", email: nil, verified: false))),
                    "requestUri": "http://localhost", "returnSecureToken": true,
                ])

            let state = try await client.linkCredential(
                .federated(
                    providerId: "apple.com", idToken: claims(sub: "a-1", email: nil, verified: false), accessToken: nil)
            )
            #expect(state.user?.uid == guest)
            #expect(state.user?.isAnonymous == false)
            #expect(state.user?.providers == ["apple.com"])
            try await watch.waitFor("linked")

            try await expectDaemonError("provider-already-linked", code: 1000) {
                _ = try await client.linkCredential(
                    .federated(
                        providerId: "apple.com", idToken: claims(sub: "a-2", email: nil, verified: false),
                        accessToken: nil))
            }
            // Another account's identity, for a provider this user does not have yet.
            try await expectDaemonError("credential-already-in-use", code: 1000) {
                _ = try await client.linkCredential(
                    .federated(
                        providerId: "google.com", idToken: claims(sub: "g-other", email: nil, verified: false),
                        accessToken: nil))
            }
            #expect(try await client.state().user?.providers == ["apple.com"])
        }
    }

    @Test("credential-already-in-use carries the provider; nothing changes")
    func credentialAlreadyInUse() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            _ = try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
                json: [
                    "postBody": .string(
                        "providerId=google.com&id_token="
                            + formEncoded(claims(sub: "g-taken", email: nil, verified: false))),
                    "requestUri": "http://localhost", "returnSecureToken": true,
                ])
            let before = try await client.state()
            let error = try await expectDaemonError("credential-already-in-use", code: 1000) {
                _ = try await client.linkCredential(
                    .federated(
                        providerId: "google.com", idToken: claims(sub: "g-taken", email: nil, verified: false),
                        accessToken: nil))
            }
            #expect(error?.providerId == "google.com")
            #expect(try await client.state().user == before.user)
        }
    }
}
