import Foundation
import SesameLocalAPI

/// A TOTP factor being enrolled (``SesameClient/enrollTotp(displayName:)``): show ``otpauthUri``
/// as a QR code (or ``secret`` to type in), then confirm with a current code from the app.
/// The secret is shown once; it is left out of `description`.
public struct SesameTotpEnrollment: Sendable, Hashable, CustomStringConvertible {
    /// The id to pass to ``SesameClient/confirmTotp(enrollmentId:code:)``.
    public var enrollmentId: String
    /// The shared secret, base32.
    public var secret: String
    /// `otpauth://totp/…?secret=…&issuer=…`, what authenticator apps scan.
    public var otpauthUri: String
    /// When the enrolment must be confirmed by.
    public var expiresAt: Date

    public init(enrollmentId: String, secret: String, otpauthUri: String, expiresAt: Date) {
        self.enrollmentId = enrollmentId
        self.secret = secret
        self.otpauthUri = otpauthUri
        self.expiresAt = expiresAt
    }

    /// Reads `enrollTotp`'s result; nil without `enrollmentId`, `secret` or `otpauthUri`.
    public init?(json: JSONValue) {
        guard let enrollmentId = json["enrollmentId"]?.stringValue, let secret = json["secret"]?.stringValue,
            let uri = json["otpauthUri"]?.stringValue
        else { return nil }
        self.init(
            enrollmentId: enrollmentId, secret: secret, otpauthUri: uri,
            expiresAt: json["expiresAt"]?.stringValue.flatMap(WireTime.parse) ?? Date(timeIntervalSince1970: 0))
    }

    /// The protocol's result object (it holds the secret).
    public var json: JSONValue {
        .object([
            "enrollmentId": .string(enrollmentId), "secret": .string(secret), "otpauthUri": .string(otpauthUri),
            "expiresAt": .string(WireTime.string(expiresAt)),
        ])
    }

    public var description: String {
        "SesameTotpEnrollment(enrollmentId: \(enrollmentId), expiresAt: \(WireTime.string(expiresAt)))"
    }
}

/// The result of ``SesameClient/reauthenticate(password:)`` and its siblings.
public struct SesameReauthentication: Sendable, Hashable {
    /// Until when sensitive calls (changePassword, changeEmail, unenrollFactor, deleteAccount)
    /// are allowed; nil when the daemon does not know, or when only a code was mailed.
    public var validUntil: Date?
    /// True when the backend mailed a one-time code (``SesameClient/sendReauthenticationCode()``):
    /// pass it to ``SesameClient/reauthenticate(code:)``.
    public var codeSent: Bool

    public init(validUntil: Date?, codeSent: Bool = false) {
        self.validUntil = validUntil
        self.codeSent = codeSent
    }

    init(json: JSONValue) {
        self.init(
            validUntil: json["validUntil"]?.stringValue.flatMap(WireTime.parse),
            codeSent: json["codeSent"]?.boolValue ?? false)
    }

    public var json: JSONValue {
        var members: [String: JSONValue] = ["validUntil": WireTime.json(validUntil)]
        if codeSent { members["codeSent"] = .bool(true) }
        return .object(members)
    }
}
