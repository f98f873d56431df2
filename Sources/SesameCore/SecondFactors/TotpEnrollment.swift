import Foundation

/// A TOTP enrolment the backend started (``RemoteAuthProvider/startTotpEnrollment(_:displayName:)``):
/// the shared secret to put in an authenticator app, and the adapter's handle to finish it.
public struct TotpEnrollmentStart: Sendable, Hashable, CustomStringConvertible {
    /// The shared secret, base32 (RFC 4648, no padding), as authenticator apps take it.
    public var secret: String
    /// `otpauth://totp/ISSUER:ACCOUNT?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`.
    public var otpauthUri: String
    /// When the backend stops accepting the enrolment, if it says.
    public var expiresAt: Date?
    /// The adapter's handle (Firebase `sessionInfo`, a GoTrue unverified factor id).
    public var handle: String

    public init(secret: String, otpauthUri: String, expiresAt: Date?, handle: String) {
        self.secret = secret
        self.otpauthUri = otpauthUri
        self.expiresAt = expiresAt
        self.handle = handle
    }

    public var description: String { "TotpEnrollmentStart(redacted)" }
}

/// `enrollTotp`'s result: what the person puts in an authenticator app. The secret is shown
/// to the caller once and never logged; the daemon keeps it only in memory until
/// `confirmTotp` or expiry.
public struct TotpEnrollment: Sendable, Hashable, CustomStringConvertible {
    /// The daemon's id of the enrolment, given back to `confirmTotp`.
    public var enrollmentId: String
    public var secret: String
    public var otpauthUri: String
    public var expiresAt: Date

    public init(enrollmentId: String, secret: String, otpauthUri: String, expiresAt: Date) {
        self.enrollmentId = enrollmentId
        self.secret = secret
        self.otpauthUri = otpauthUri
        self.expiresAt = expiresAt
    }

    public var description: String { "TotpEnrollment(\(enrollmentId), redacted)" }
}

/// A proof of a recent sign-in for `reauthenticate`.
public enum ReauthenticationProof: Sendable, Hashable, CustomStringConvertible {
    /// The account's password.
    case password(String)
    /// A one-time code the backend mailed (Supabase's reauthentication nonce).
    case code(String)

    public var description: String {
        switch self {
        case .password: "ReauthenticationProof.password(redacted)"
        case .code: "ReauthenticationProof.code(redacted)"
        }
    }
}
