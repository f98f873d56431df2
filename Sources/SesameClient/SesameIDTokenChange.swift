import Foundation

/// A new ID token was obtained by the daemon (`idTokenChanged`). It carries no token: call
/// ``SesameClient/idToken(forceRefresh:minValidity:uid:)`` for it.
public struct SesameIDTokenChange: Sendable, Hashable {
    public var uid: String
    public var expiresAt: Date
    public var sequence: Int64

    public init(uid: String, expiresAt: Date, sequence: Int64) {
        self.uid = uid
        self.expiresAt = expiresAt
        self.sequence = sequence
    }
}
