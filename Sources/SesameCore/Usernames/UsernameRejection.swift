/// Why ``UsernameRules`` refused a name. Every case maps onto a wire reason through
/// ``reason``: `invalid-username` or `username-reserved`.
public enum UsernameRejection: Sendable, Hashable {
    /// Fewer than ``UsernameRules/minimumLength`` Unicode scalars after NFC.
    case tooShort(count: Int)
    /// More than ``UsernameRules/maximumLength`` Unicode scalars after NFC.
    case tooLong(count: Int)
    /// A scalar that is not a letter, mark or digit, nor `_`, `-` or `.` (this includes `@`,
    /// spaces, punctuation, symbols and emoji, joiners and variation selectors).
    case disallowedCharacter(Unicode.Scalar)
    /// Letters from two of the mutually confusable scripts Latin, Greek and Cyrillic.
    case mixedScripts([UsernameScript])
    /// The name is valid, but its key cannot be stored as a database key (for example a
    /// compatibility character whose NFKC form contains a space).
    case unrepresentableKey
    /// The name's key equals the key of a reserved name.
    case reserved

    /// The domain reason: `username-reserved` for ``reserved``, else `invalid-username`.
    public var reason: AuthError.Reason {
        switch self {
        case .reserved: .usernameReserved
        default: .invalidUsername
        }
    }

    /// The domain error for this rejection, with the reason's default message.
    public var authError: AuthError { AuthError(reason) }
}
