/// A sign-in method to add to the current user with ``SesameClient/linkCredential(_:)``.
public enum SesameCredential: Sendable, Hashable {
    /// Email and password (adds the provider `password`).
    case password(email: String, password: String)
    /// A sign-in link sent by ``SesameClient/sendSignInLink(email:continueUrl:)`` (adds the
    /// provider `password`, as in Firebase). `email` may be nil when the link was requested
    /// through the same daemon, which remembers the address.
    case emailLink(email: String?, link: String)
    /// A federated identity such as `google.com` or `apple.com`, with the provider's ID token
    /// or access token.
    case federated(providerId: String, idToken: String?, accessToken: String?)
}
