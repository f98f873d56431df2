/// A way of proving who the person is, for linking or signing in.
///
/// `password` and `description` never appear in logs: `description` is redacted.
public enum Credential: Sendable, Hashable, CustomStringConvertible {
    case password(email: String, password: String)
    case emailLink(email: String, link: String)
    /// A federated identity (`google.com`, `apple.com`, any provider id) from a token the app
    /// obtained from the identity provider.
    case federated(providerId: String, idToken: String?, accessToken: String?)

    /// The provider id this credential adds to an account (`password` for email links, as the
    /// wire protocol names it).
    public var providerId: String {
        switch self {
        case .password, .emailLink: "password"
        case .federated(let providerId, _, _): providerId
        }
    }

    public var description: String { "Credential(\(providerId), redacted)" }
}
