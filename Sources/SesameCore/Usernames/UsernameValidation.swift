/// The outcome of ``UsernameRules/validate(_:)``.
public enum UsernameValidation: Sendable, Hashable {
    /// The name may be claimed; `Username.key` is where it lives in the directory.
    case valid(Username)
    /// The name may not be used, and why.
    case rejected(UsernameRejection)

    /// The valid username, or nil.
    public var username: Username? {
        if case .valid(let username) = self { username } else { nil }
    }

    /// The rejection, or nil when valid.
    public var rejection: UsernameRejection? {
        if case .rejected(let rejection) = self { rejection } else { nil }
    }
}
