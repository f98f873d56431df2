import Foundation
import SesameCore

/// The fake's sign-in flows and custom tokens:
/// - a custom token `custom:<uid>` signs in to that uid (created when new); anything else is
///   `invalid-custom-token`;
/// - a browser sign-in starts deterministically (``lastBrowserStart`` holds its secrets), and its
///   callback `<redirectUri>?code=<identity>&state=<state>` signs in with the federated identity
///   `<providerId>|<identity>`, as ``signIn(federated:linkingTo:)`` does; each callback once.
extension FakeRemoteAuthProvider {
    /// The prefix of the custom tokens the fake takes.
    public static let customTokenPrefix = "custom:"

    /// An account that signs in with this federated identity only.
    public func addFederatedAccount(providerId: String, idToken: String) -> String {
        let uid = newUID()
        accounts[uid] = Account(uid: uid, providers: [providerId])
        identities[providerId + "|" + idToken] = uid
        return uid
    }

    public nonisolated func checkFederatedSignIn(providerId: String, yieldsIDToken: Bool) throws(RemoteAuthError) {
        if federatedNeedsIDToken && !yieldsIDToken {
            throw .unsupported("This backend takes ID tokens only, and \(providerId) yields none (fake).")
        }
    }

    public func startBrowserSignIn(
        providerId: String, redirectUri: String
    ) async throws(RemoteAuthError) -> BrowserSignInStart {
        try enter("startBrowserSignIn")
        nextNumber += 1
        let start = BrowserSignInStart(
            providerId: providerId, redirectUri: redirectUri,
            authorizationUrl: "https://idp.fake.invalid/authorize?flow=\(nextNumber)", state: "state-\(nextNumber)",
            backendSecret: "session-\(nextNumber)")
        browserSessions[start.backendSecret] = false
        lastBrowserStart = start
        return start
    }

    public func completeBrowserSignIn(
        _ start: BrowserSignInStart, callbackUrl: String, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> BrowserSignInCompletion {
        try enter("completeBrowserSignIn")
        guard browserSessions[start.backendSecret] == false,
            let code = URLComponents(string: callbackUrl)?.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw .rejected(AuthError(.invalidCredential)) }
        browserSessions[start.backendSecret] = true
        let credential = FederatedCredential(providerId: start.providerId, idToken: code, accessToken: nil)
        do throws(RemoteAuthError) {
            return .signedIn(try await signIn(federated: credential, linkingTo: linkingTo))
        } catch .rejected(let error) where error.reason == .credentialAlreadyInUse {
            return .belongsToAnotherAccount(credential, error)
        }
    }

    public func signIn(customToken: String) async throws(RemoteAuthError) -> SignInResult {
        try enter("signInWithCustomToken")
        guard customToken.hasPrefix(Self.customTokenPrefix) else { throw .rejected(AuthError(.invalidCustomToken)) }
        let uid = String(customToken.dropFirst(Self.customTokenPrefix.count))
        guard !uid.isEmpty, accounts[uid]?.disabled != true else { throw .rejected(AuthError(.invalidCustomToken)) }
        let isNew = accounts[uid] == nil
        if isNew { accounts[uid] = Account(uid: uid, providers: ["custom"]) }
        return try signInIssue(uid: uid, provider: "custom", isNew: isNew)
    }
}
