import Foundation
import SesameLocalAPI

/// An ID token from ``SesameClient/idToken(forceRefresh:minValidity:uid:)``.
///
/// `description` redacts the token, so logging the value never leaks it.
public struct SesameIDToken: Sendable, Hashable, CustomStringConvertible {
    /// The JWT to send as `Authorization: Bearer …` to your backend. A secret.
    public var token: String
    public var uid: String
    public var expiresAt: Date
    public var issuedAt: Date
    /// `anonymous`, `password`, `google.com`, …
    public var signInProvider: String

    public init(token: String, uid: String, expiresAt: Date, issuedAt: Date, signInProvider: String) {
        self.token = token
        self.uid = uid
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.signInProvider = signInProvider
    }

    public var description: String {
        "SesameIDToken(uid: \(uid), signInProvider: \(signInProvider), expiresAt: \(expiresAt), token: redacted)"
    }
}

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

extension SesameIDToken {
    /// The `getIdToken` result as one line of compact JSON. It contains the token.
    public var json: String {
        WireIdToken(token: token, uid: uid, expiresAt: expiresAt, issuedAt: issuedAt, signInProvider: signInProvider)
            .json.jsonString
    }
}
