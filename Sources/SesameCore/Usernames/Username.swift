/// A username that passed ``UsernameRules``: what the person typed (NFC) and its directory key.
///
/// Invariant: `key` is derived from `name` by ``UsernameKey/derive(from:)``; two usernames are
/// the same name exactly when their keys are equal.
public struct Username: Sendable, Hashable, CustomStringConvertible {
    /// The name as typed, NFC-normalised; what is shown and stored in `/users/details/{uid}`.
    public let name: String
    /// The directory key: NFKC, Unicode full case folding, `.` replaced by `,`.
    public let key: String

    init(name: String, key: String) {
        self.name = name
        self.key = key
    }

    public var description: String { name }
}
