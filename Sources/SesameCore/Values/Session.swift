/// A signed-in account with its tokens: what the daemon holds and persists.
public struct Session: Sendable, Hashable, Codable {
    public var user: User
    public var idToken: IDToken
    public var refreshToken: RefreshToken

    public init(user: User, idToken: IDToken, refreshToken: RefreshToken) {
        self.user = user
        self.idToken = idToken
        self.refreshToken = refreshToken
    }

    public var uid: String { user.uid }
}
