import Foundation

/// A browser sign-in the backend started (RFC 8252 with PKCE, run by the backend where it can:
/// Firebase `createAuthUri`, Supabase `/authorize`). Everything but ``authorizationUrl`` is a
/// secret of the daemon's.
public struct BrowserSignInStart: Sendable, Hashable, CustomStringConvertible {
    public var providerId: String
    /// The loopback URL the browser comes back to.
    public var redirectUri: String
    /// Where to send the person's browser.
    public var authorizationUrl: String
    /// The `state` the callback must carry back.
    public var state: String
    /// What the backend needs to finish: a Firebase `sessionId`, a Supabase PKCE verifier.
    public var backendSecret: String

    public init(providerId: String, redirectUri: String, authorizationUrl: String, state: String, backendSecret: String)
    {
        self.providerId = providerId
        self.redirectUri = redirectUri
        self.authorizationUrl = authorizationUrl
        self.state = state
        self.backendSecret = backendSecret
    }

    public var description: String { "BrowserSignInStart(\(providerId), redacted)" }
}

/// How a browser sign-in ended at the backend.
public enum BrowserSignInCompletion: Sendable, Hashable {
    /// Signed in, signed up, or linked to the account given (compare the uid).
    case signedIn(SignInResult)
    /// Linking found the identity (or its email) on another account; the provider's credential
    /// lets the daemon sign in to that account (and record a merge) without another trip.
    case belongsToAnotherAccount(FederatedCredential, AuthError)
}
