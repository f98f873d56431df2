/// The shared directory of usernames (`/users/usernames/{key}` → uid and
/// `/users/details/{uid}` → username and email).
///
/// Claiming is atomic: of two concurrent claims of one key, exactly one succeeds.
public protocol UsernameDirectory: Sendable {
    /// The uid that holds `key`, or nil.
    func owner(of key: String) async throws(RemoteAuthError) -> String?
    /// Claims `key` for `uid` only if nobody holds it. Returns false when it is taken.
    func claim(_ key: String, for uid: String, idToken: IDToken) async throws(RemoteAuthError) -> Bool
    /// Releases `key` if (and only if) `uid` holds it.
    func release(_ key: String, of uid: String, idToken: IDToken) async throws(RemoteAuthError)
    /// The details record of `uid`.
    func details(of uid: String) async throws(RemoteAuthError) -> UsernameDetails?
    /// Writes the details record of `uid`.
    func setDetails(_ details: UsernameDetails, of uid: String, idToken: IDToken) async throws(RemoteAuthError)
}

/// `/users/details/{uid}`: the username as typed (NFC) and the account's email.
public struct UsernameDetails: Sendable, Hashable, Codable {
    public var username: String
    public var email: String?

    public init(username: String, email: String?) {
        self.username = username
        self.email = email
    }
}
