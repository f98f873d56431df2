import Foundation
import SesameCore

extension ProviderConformance {
    func backendName() throws {
        try require(["firebase", "supabase"].contains(provider.backendName), "backendName is \(provider.backendName)")
    }

    func anonymousSignUp() async throws {
        let guest = try await provider.signUpAnonymously()
        try require(!guest.uid.isEmpty && guest.isNewUser, "an anonymous sign-up is a new user with a uid")
        try require(
            guest.idToken.signInProvider == "anonymous",
            "signInProvider is \(guest.idToken.signInProvider), not anonymous")
        let user = try await provider.lookup(guest.idToken)
        try require(user.uid == guest.uid, "lookup answers another uid")
        try require(
            user.isAnonymous && user.providers.isEmpty && user.email == nil, "the guest is anonymous without providers")
        let other = try await provider.signUpAnonymously()
        try require(other.uid != guest.uid, "every anonymous sign-up makes a new user")
    }

    func refreshKeepsUid() async throws {
        let guest = try await provider.signUpAnonymously()
        let grant = try await provider.refresh(guest.refreshToken)
        try require(grant.uid == guest.uid, "refresh answers another uid")
        try require(
            grant.idToken.signInProvider == "anonymous", "refreshed signInProvider is \(grant.idToken.signInProvider)")
        try require(try await provider.lookup(grant.idToken).uid == guest.uid, "the refreshed token is not the guest's")
        let again = try await provider.refresh(grant.refreshToken)
        try require(again.uid == guest.uid, "the refresh token from a refresh works")
    }

    func linkPasswordKeepsUid() async throws {
        let guest = try await provider.signUpAnonymously()
        let named = try await provider.updateProfile(guest.idToken, displayName: "Guest Name")
        let email = freshEmail("link")
        let linked = try await provider.signUp(
            email: email, password: "secret-123", linkingTo: named?.idToken ?? guest.idToken)
        try require(linked.uid == guest.uid && !linked.isNewUser, "linking email and password keeps the uid")
        let kept = try await provider.lookup(linked.idToken).displayName
        try require(kept == "Guest Name", "linking email and password keeps the display name (got \(kept ?? "none"))")
        try require(
            linked.idToken.signInProvider == "password",
            "signInProvider after linking is \(linked.idToken.signInProvider)")
        let user = try await provider.lookup(linked.idToken)
        try require(
            !user.isAnonymous && user.email == email && user.providers.contains("password"),
            "after linking: anonymous \(user.isAnonymous), providers \(user.providers)")
        let signedIn = try await provider.signIn(email: email, password: "secret-123")
        try require(signedIn.uid == guest.uid, "the linked password signs in to the same uid")
    }

    func passwordResetOfUnknownAddress() async throws {
        // No account enumeration: an address without an account is answered as one with an account.
        try await provider.sendPasswordReset(email: freshEmail("nobody"))
    }

    func passwordSignIn() async throws {
        let email = freshEmail("ann")
        let created = try await provider.signUp(email: email, password: "secret-123", linkingTo: nil)
        try require(created.isNewUser, "a sign-up without linking is a new user")
        let signedIn = try await provider.signIn(email: email, password: "secret-123")
        try require(signedIn.uid == created.uid && !signedIn.isNewUser, "sign-in answers the account's uid")
        try require(
            signedIn.idToken.signInProvider == "password", "signInProvider is \(signedIn.idToken.signInProvider)")
    }

    func wrongPassword() async throws {
        let email = freshEmail("bob")
        _ = try await provider.signUp(email: email, password: "secret-123", linkingTo: nil)
        try await requireFailure(
            "a wrong password",
            { () async throws(RemoteAuthError) in
                try await provider.signIn(email: email, password: "wrong-password")
            }, matches: { isRejected($0, .invalidLoginCredentials) })
        try await requireFailure(
            "an unknown email",
            { () async throws(RemoteAuthError) in
                try await provider.signIn(email: freshEmail("nobody"), password: "secret-123")
            }, matches: { isRejected($0, .invalidLoginCredentials) })
    }

    func duplicateEmail() async throws {
        let email = freshEmail("carol")
        _ = try await provider.signUp(email: email, password: "secret-123", linkingTo: nil)
        try await requireFailure(
            "a sign-up with a taken email",
            { () async throws(RemoteAuthError) in
                try await provider.signUp(email: email, password: "another-123", linkingTo: nil)
            }, matches: { isRejected($0, .emailAlreadyInUse) })
        let guest = try await provider.signUpAnonymously()
        try await requireFailure(
            "linking a taken email",
            { () async throws(RemoteAuthError) in
                try await provider.signUp(email: email, password: "another-123", linkingTo: guest.idToken)
            }, matches: { isRejected($0, .emailAlreadyInUse) })
    }

    func emailLinkSignIn() async throws {
        let email = freshEmail("dan")
        try await provider.sendSignInLink(email: email, continueUrl: nil)
        let proof = try await backend.emailSignInProof(for: email)
        try provider.checkSignInProof(proof)
        let result = try await provider.signIn(email: email, proof: proof, linkingTo: nil)
        let user = try await provider.lookup(result.idToken)
        try require(
            user.uid == result.uid && user.email == email && user.emailVerified,
            "an email-link sign-in is the address's verified account")
        try require(
            user.providers.contains("password"),
            "an email-link account has the password provider, not \(user.providers)")
        try await requireFailure(
            "a spent proof",
            { () async throws(RemoteAuthError) in
                try await provider.signIn(email: email, proof: proof, linkingTo: nil)
            }, matches: { isRejected($0, .invalidActionCode) || isRejected($0, .expiredActionCode) })
    }

    func federatedSignIn() async throws {
        let subject = "sub-\(UUID().uuidString.prefix(8))"
        let credential = try federated(subject: subject, email: freshEmail("fed"))
        let first = try await provider.signIn(federated: credential, linkingTo: nil)
        try require(
            first.idToken.signInProvider == credential.providerId, "signInProvider is \(first.idToken.signInProvider)")
        let user = try await provider.lookup(first.idToken)
        try require(
            user.providers.contains(credential.providerId) && !user.isAnonymous, "providers are \(user.providers)")
        let second = try await provider.signIn(federated: credential, linkingTo: nil)
        try require(second.uid == first.uid, "the same identity signs in to the same account")
    }

    func federatedLinkKeepsUid() async throws {
        let credential = try federated(subject: "sub-\(UUID().uuidString.prefix(8))", email: freshEmail("fedlink"))
        let guest = try await provider.signUpAnonymously()
        let linked = try await provider.signIn(federated: credential, linkingTo: guest.idToken)
        try require(linked.uid == guest.uid, "linking an identity keeps the uid")
        let user = try await provider.lookup(linked.idToken)
        try require(
            !user.isAnonymous && user.providers.contains(credential.providerId), "after linking: \(user.providers)")
        let other = try await provider.signUpAnonymously()
        try await requireFailure(
            "linking an identity another account has",
            { () async throws(RemoteAuthError) in
                try await provider.signIn(federated: credential, linkingTo: other.idToken)
            }, matches: { isRejected($0, .credentialAlreadyInUse) || isRejected($0, .emailAlreadyInUse) })
    }

    func deleteAccount() async throws {
        let guest = try await provider.signUpAnonymously()
        try await provider.deleteAccount(guest.idToken)
        try await requireFailure(
            "a refresh of a deleted account",
            { () async throws(RemoteAuthError) in
                try await provider.refresh(guest.refreshToken)
            }, matches: { if case .accountGone = $0 { true } else { false } })
    }

    func revokeSession() async throws {
        let guest = try await provider.signUpAnonymously()
        try await provider.revokeSession(guest.idToken)
        // Backends with server-side sessions end it; the others succeed without a change.
        switch await outcome({ () async throws(RemoteAuthError) in try await provider.refresh(guest.refreshToken) }) {
        case .success(let grant): try require(grant.uid == guest.uid, "a refresh after revoking answers another uid")
        case .failure(.accountGone): break
        case .failure(let error): throw ProviderConformanceFailure("a refresh after revoking: unexpected \(error)")
        }
    }

    func lookupOfAnAccount() async throws {
        let email = freshEmail("eve")
        let created = try await provider.signUp(email: email, password: "secret-123", linkingTo: nil)
        let user = try await provider.lookup(created.idToken)
        try require(user.uid == created.uid && user.email == email && !user.isAnonymous, "lookup reports the account")
        try require(user.providers == ["password"], "providers are \(user.providers), not [password]")
        try require(user.createdAt != nil, "lookup reports when the account was created")
    }

    func serverErrorIsTransient() async throws {
        let guest = try await provider.signUpAnonymously()
        try await backend.failNext(1, status: 503)
        try await requireFailure(
            "a refresh answered 503",
            { () async throws(RemoteAuthError) in
                try await provider.refresh(guest.refreshToken)
            }, matches: { $0 == .unavailable(status: 503) && $0.isTransient })
        try await backend.clearFaults()
        try require(try await provider.refresh(guest.refreshToken).uid == guest.uid, "the session survives a 503")
    }

    func garbageIsTransient() async throws {
        try await backend.failNext(1, status: 200)
        try await requireFailure(
            "an answer that is not a session",
            { () async throws(RemoteAuthError) in
                try await provider.signUpAnonymously()
            }, matches: { if case .malformedResponse = $0 { $0.isTransient } else { false } })
        try await backend.clearFaults()
    }

    private func federated(subject: String, email: String) throws -> FederatedCredential {
        guard let credential = backend.federatedCredential(subject: subject, email: email) else {
            throw ProviderConformanceFailure(
                "the backend cannot mint an identity-provider token for the federated checks")
        }
        return credential
    }
}
