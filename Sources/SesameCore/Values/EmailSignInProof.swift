/// What the person pastes or types to prove they received a passwordless sign-in email.
///
/// The domain does not look inside: the ``RemoteAuthProvider`` adapter knows what its backend
/// sends (a link with a code in it, or a one-time code on its own) and parses it. Both forms are
/// secrets: `description` never shows them.
public enum EmailSignInProof: Sendable, Hashable, CustomStringConvertible {
    /// The whole link from the email, as the person pasted it.
    case link(String)
    /// The one-time code from the email, on backends that send codes.
    case code(String)

    public var description: String {
        switch self {
        case .link: "EmailSignInProof(link, redacted)"
        case .code: "EmailSignInProof(code, redacted)"
        }
    }
}
