import AsyncHTTPClient
import Foundation
import SesameCore
import SesameEmulatorTesting
import SesameFirebase
import SesameHTTP
import SesameLocalAPI
import SesameTesting
import Testing

/// `FirebaseAuthProvider` over real HTTP on loopback against `SesameEmulator`.
@Suite("Firebase auth provider against the emulator")
struct FirebaseAuthProviderEmulatorTests {
    @Test("anonymous life cycle: sign up, look up, refresh, delete")
    func anonymousLifeCycle() async throws {
        try await EmulatorHarness.with { h in
            let session = try await h.auth.signUpAnonymously()
            #expect(session.isNewUser)
            #expect(session.idToken.signInProvider == "anonymous")
            #expect(session.idToken.remainingValidity(at: Date()) > 3500)

            let user = try await h.auth.lookup(session.idToken)
            #expect(user.uid == session.uid && user.isAnonymous && user.providers.isEmpty && user.email == nil)
            #expect(user.createdAt != nil)

            let grant = try await h.auth.refresh(session.refreshToken)
            #expect(grant.uid == session.uid)
            #expect(grant.idToken.signInProvider == "anonymous")
            #expect(try await h.auth.lookup(grant.idToken).uid == session.uid)

            try await h.auth.deleteAccount(grant.idToken)
            await #expect(throws: RemoteAuthError.accountGone(.userNotFound)) {
                _ = try await h.auth.lookup(grant.idToken)
            }
            await #expect(throws: RemoteAuthError.accountGone(.sessionRevoked)) {
                _ = try await h.auth.refresh(grant.refreshToken)
            }
        }
    }

    @Test("linking a password to a guest keeps the guest's display name")
    func linkKeepsDisplayName() async throws {
        try await EmulatorHarness.with { h in
            let guest = try await h.auth.signUpAnonymously()
            let renamed = try await h.auth.updateProfile(guest.idToken, displayName: "Ann Lee")
            let linked = try await h.auth.signUp(
                email: "ann@example.com", password: "secret1", linkingTo: renamed?.idToken ?? guest.idToken)
            let user = try await h.auth.lookup(linked.idToken)
            #expect(user.uid == guest.uid && user.displayName == "Ann Lee" && !user.isAnonymous)
            // A guest without a name gets none.
            let other = try await h.auth.signUpAnonymously()
            let plain = try await h.auth.signUp(email: "bob@example.com", password: "secret1", linkingTo: other.idToken)
            #expect(try await h.auth.lookup(plain.idToken).displayName == nil)
        }
    }

    @Test("upgrade an anonymous account with email and password; conflicts and bad passwords")
    func emailPassword() async throws {
        try await EmulatorHarness.with { h in
            let guest = try await h.auth.signUpAnonymously()
            let linked = try await h.auth.signUp(
                email: "Ann@Example.com", password: "secret1", linkingTo: guest.idToken)
            #expect(linked.uid == guest.uid && !linked.isNewUser)
            #expect(linked.idToken.signInProvider == "password")
            let user = try await h.auth.lookup(linked.idToken)
            #expect(!user.isAnonymous && user.email == "ann@example.com" && user.providers == ["password"])

            let signedIn = try await h.auth.signIn(email: "ann@example.com", password: "secret1")
            #expect(signedIn.uid == guest.uid && !signedIn.isNewUser)

            await #expect(
                throws: RemoteAuthError.rejected(
                    AuthError(.emailAlreadyInUse, email: "ann@example.com", providerId: "password"))
            ) {
                _ = try await h.auth.signUp(email: "ann@example.com", password: "another1", linkingTo: nil)
            }
            await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidLoginCredentials))) {
                _ = try await h.auth.signIn(email: "ann@example.com", password: "wrong-password")
            }
            await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidLoginCredentials))) {
                _ = try await h.auth.signIn(email: "nobody@example.com", password: "whatever1")
            }
            await #expect(throws: RemoteAuthError.rejected(AuthError(.weakPassword))) {
                _ = try await h.auth.signUp(email: "bob@example.com", password: "123", linkingTo: nil)
            }
            await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidEmail))) {
                _ = try await h.auth.signUp(email: "not-an-email", password: "secret1", linkingTo: nil)
            }
            let fresh = try await h.auth.signUp(email: "carol@example.com", password: "secret1", linkingTo: nil)
            #expect(fresh.isNewUser && fresh.uid != guest.uid)
        }
    }

    @Test("after a password is set, earlier ID tokens are refused; the returned ones work")
    func revocation() async throws {
        try await EmulatorHarness.with { h in
            let guest = try await h.auth.signUpAnonymously()
            h.time.advance(seconds: 2)
            let linked = try await h.auth.signUp(
                email: "ann@example.com", password: "secret1", linkingTo: guest.idToken)
            await #expect(throws: RemoteAuthError.idTokenRejected) {
                _ = try await h.auth.lookup(guest.idToken)
            }
            #expect(try await h.auth.lookup(linked.idToken).uid == guest.uid)
            // Emulator refresh tokens survive revocation (docs/emulator.md): the refresh works.
            #expect(try await h.auth.refresh(guest.refreshToken).uid == guest.uid)
        }
    }

    @Test("email link: send, link to the guest, and a spent code is refused")
    func emailLink() async throws {
        try await EmulatorHarness.with { h in
            let guest = try await h.auth.signUpAnonymously()
            try await h.auth.sendSignInLink(email: "dora@example.com", continueUrl: nil)
            let code = try await h.oobCode(for: "dora@example.com")
            let linked = try await h.auth.signIn(
                email: "dora@example.com", proof: .link(Fixtures.signInLink(code)), linkingTo: guest.idToken)
            #expect(linked.uid == guest.uid && !linked.isNewUser && linked.idToken.signInProvider == "password")
            await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidActionCode))) {
                _ = try await h.auth.signIn(
                    email: "dora@example.com", proof: .link(Fixtures.signInLink(code)), linkingTo: nil)
            }

            try await h.auth.sendSignInLink(email: "eve@example.com", continueUrl: "https://app.example/after")
            let second = try await h.oobCode(for: "eve@example.com")
            await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidEmail))) {
                _ = try await h.auth.signIn(
                    email: "mallory@example.com", proof: .link(Fixtures.signInLink(second)), linkingTo: nil)
            }
            try await h.auth.sendSignInLink(email: "eve@example.com", continueUrl: nil)
            let third = try await h.oobCode(for: "eve@example.com")
            let created = try await h.auth.signIn(
                email: "eve@example.com", proof: .link(Fixtures.signInLink(third)), linkingTo: nil)
            #expect(created.isNewUser && created.uid != guest.uid)
            #expect(try await h.auth.signInMethods(forEmail: "eve@example.com")?.contains("emailLink") == true)
        }
    }

    @Test("federated: sign up, link, conflicts and needConfirmation")
    func federated() async throws {
        try await EmulatorHarness.with { h in
            let owner = try await h.auth.signIn(
                federated: EmulatorHarness.google(sub: "g-1", email: "fay@example.com", verified: true), linkingTo: nil)
            #expect(owner.isNewUser && owner.idToken.signInProvider == "google.com")
            let again = try await h.auth.signIn(federated: EmulatorHarness.google(sub: "g-1"), linkingTo: nil)
            #expect(again.uid == owner.uid && !again.isNewUser)

            // Linking an IdP account that another user holds: 200 + errorMessage.
            let guest = try await h.auth.signUpAnonymously()
            await #expect(
                throws: RemoteAuthError.rejected(
                    AuthError(.credentialAlreadyInUse, email: "fay@example.com", providerId: "google.com"))
            ) {
                _ = try await h.auth.signIn(
                    federated: EmulatorHarness.google(sub: "g-1", email: "fay@example.com", verified: true),
                    linkingTo: guest.idToken)
            }
            // Linking a fresh IdP account keeps the uid.
            let linked = try await h.auth.signIn(
                federated: EmulatorHarness.google(sub: "g-2"), linkingTo: guest.idToken)
            #expect(linked.uid == guest.uid && linked.idToken.signInProvider == "google.com")
            #expect(try await h.auth.lookup(linked.idToken).providers == ["google.com"])

            // An unverified IdP email that matches a password account: needConfirmation.
            _ = try await h.auth.signUp(email: "gus@example.com", password: "secret1", linkingTo: nil)
            await #expect(
                throws: RemoteAuthError.rejected(
                    AuthError(
                        .accountExistsWithDifferentCredential, email: "gus@example.com", providerId: "google.com",
                        providers: ["password"]
                    ))
            ) {
                _ = try await h.auth.signIn(
                    federated: EmulatorHarness.google(sub: "g-3", email: "gus@example.com", verified: false),
                    linkingTo: nil)
            }
            await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCredential))) {
                _ = try await h.auth.signIn(
                    federated: FederatedCredential(providerId: "google.com", idToken: "{not json", accessToken: nil),
                    linkingTo: nil
                )
            }
        }
    }

    @Test("sign-in methods, profile, unlink, mails")
    func accountManagement() async throws {
        try await EmulatorHarness.with { h in
            let ann = try await h.auth.signUp(email: "ann@example.com", password: "secret1", linkingTo: nil)
            #expect(try await h.auth.signInMethods(forEmail: "ann@example.com") == ["password"])
            #expect(try await h.auth.signInMethods(forEmail: "nobody@example.com") == [])

            #expect(try await h.auth.updateProfile(ann.idToken, displayName: "Ann Lee") == nil)
            #expect(try await h.auth.lookup(ann.idToken).displayName == "Ann Lee")
            _ = try await h.auth.updateProfile(ann.idToken, displayName: nil)
            #expect(try await h.auth.lookup(ann.idToken).displayName == nil)

            let withGoogle = try await h.auth.signIn(
                federated: EmulatorHarness.google(sub: "g-9"), linkingTo: ann.idToken)
            #expect(try await h.auth.lookup(withGoogle.idToken).providers.sorted() == ["google.com", "password"])
            try await h.auth.unlink(withGoogle.idToken, providerIds: ["google.com"])
            #expect(try await h.auth.lookup(withGoogle.idToken).providers == ["password"])

            try await h.auth.sendPasswordReset(email: "ann@example.com")
            _ = try await h.oobCode(for: "ann@example.com", type: "PASSWORD_RESET")
            try await h.auth.sendEmailVerification(withGoogle.idToken)
            _ = try await h.oobCode(for: "ann@example.com", type: "VERIFY_EMAIL")
            // No account enumeration: an unknown address is answered as a known one, and no mail goes out.
            try await h.auth.sendPasswordReset(email: "nobody@example.com")
            let sent = try await h.http.oobCodes(h.authBase)
            #expect(!sent.isEmpty && !sent.contains { $0["email"] == "nobody@example.com" })
        }
    }

    @Test("a disabled account: refresh ends the session, sign-in is refused")
    func disabled() async throws {
        try await EmulatorHarness.with { h in
            let ann = try await h.auth.signUp(email: "ann@example.com", password: "secret1", linkingTo: nil)
            try await h.disable(uid: ann.uid)
            await #expect(throws: RemoteAuthError.accountGone(.userDisabled)) {
                _ = try await h.auth.refresh(ann.refreshToken)
            }
            await #expect(throws: RemoteAuthError.accountGone(.userDisabled)) {
                _ = try await h.auth.lookup(ann.idToken)
            }
            await #expect(throws: RemoteAuthError.rejected(AuthError(.userDisabled))) {
                _ = try await h.auth.signIn(email: "ann@example.com", password: "secret1")
            }
        }
    }

    @Test("a garbage ID token is refused as such")
    func badIDToken() async throws {
        try await EmulatorHarness.with { h in
            let bogus = IDToken(
                rawValue: "garbage", expiresAt: Date().addingTimeInterval(60), issuedAt: Date(), signInProvider: "x")
            await #expect(throws: RemoteAuthError.idTokenRejected) {
                _ = try await h.auth.lookup(bogus)
            }
            await #expect(throws: RemoteAuthError.accountGone(.sessionRevoked)) {
                _ = try await h.auth.refresh(RefreshToken("garbage"))
            }
        }
    }
}
