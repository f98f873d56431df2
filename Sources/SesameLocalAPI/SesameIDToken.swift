import Foundation

/// An ID token (the result of `getIdToken`): the wire object, and SesameClient's public value.
///
/// `description` redacts the token, so logging the value never leaks it.
public struct SesameIDToken: Sendable, Hashable, CustomStringConvertible {
    /// The JWT to send as `Authorization: Bearer …` to your backend. A secret: print it only
    /// where asked to.
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

    /// The `getIdToken` result (`json.jsonString` for one line of compact JSON). It contains
    /// the token.
    public var json: JSONValue {
        .object([
            "token": .string(token), "uid": .string(uid), "expiresAt": .string(WireTime.string(expiresAt)),
            "issuedAt": .string(WireTime.string(issuedAt)), "signInProvider": .string(signInProvider),
        ])
    }

    /// Reads a `getIdToken` result; nil without `token`, `uid` or `expiresAt`.
    public init?(json: JSONValue) {
        guard let token = json["token"]?.stringValue, let uid = json["uid"]?.stringValue,
            let expiresAt = json["expiresAt"]?.stringValue.flatMap(WireTime.parse)
        else { return nil }
        self.token = token
        self.uid = uid
        self.expiresAt = expiresAt
        self.issuedAt = json["issuedAt"]?.stringValue.flatMap(WireTime.parse) ?? expiresAt
        self.signInProvider = json["signInProvider"]?.stringValue ?? ""
    }

    public var description: String {
        "SesameIDToken(uid: \(uid), signInProvider: \(signInProvider), expiresAt: \(expiresAt), token: redacted)"
    }
}

/// The server side's name for ``SesameIDToken``.
public typealias WireIdToken = SesameIDToken
