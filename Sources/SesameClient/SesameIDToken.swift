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

extension SesameIDToken {
    /// The `getIdToken` result as one line of compact JSON. It contains the token.
    public var json: String {
        WireIdToken(token: token, uid: uid, expiresAt: expiresAt, issuedAt: issuedAt, signInProvider: signInProvider)
            .json.jsonString
    }
}
