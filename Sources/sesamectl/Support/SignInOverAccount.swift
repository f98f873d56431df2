import SesameClient

/// sesamectl's rule for every way of signing in (password, email link or code, federated token,
/// device and browser flows, custom token): while an account, not a guest, is signed in, it
/// refuses and says to sign out first, so that a person never switches accounts without
/// noticing. The daemon's API keeps PROTOCOL.md's contract (a sign-in over another account
/// replaces it, as Firebase's SDKs do for an app); the command line asks the person instead.
enum SignInOverAccount {
    /// Throws `already-signed-in` (exit 1, with the sign-out advice) while an account is signed
    /// in. While an address change is pending the session is checked at the backend first:
    /// Firebase ends it once the change is confirmed, and signing in with the new address must
    /// then go ahead.
    static func refuse(_ client: SesameClient) async throws {
        var state = try await client.state()
        if let user = state.user, !user.isAnonymous, user.pendingEmail != nil {
            _ = try? await client.idToken(forceRefresh: true)
            state = try await client.state()
        }
        guard let user = state.user, !user.isAnonymous else { return }
        throw SesameClientError.daemon(
            .init(
                code: 4000, reason: "already-signed-in",
                message: "An account is signed in: sign out first.",
                dataJSON: #"{"reason":"already-signed-in"}"#))
    }
}
