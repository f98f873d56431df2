import Foundation

/// A backend's ID token (a JWT) with the facts the daemon needs about it.
///
/// The raw value is a secret: `description` never shows it, so the token cannot end up in a
/// log line or an error message by accident.
public struct IDToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The compact JWT as issued by the backend.
    public let rawValue: String
    /// When the backend says the token stops being valid.
    public let expiresAt: Date
    /// When the token was obtained.
    public let issuedAt: Date
    /// How the person signed in, as a provider id of the wire protocol (`anonymous`, `password`,
    /// `google.com`, …). The adapter reads it from its backend's token and maps it to these names.
    public let signInProvider: String

    public init(rawValue: String, expiresAt: Date, issuedAt: Date, signInProvider: String) {
        self.rawValue = rawValue
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.signInProvider = signInProvider
    }

    /// Seconds of validity left at `now` (negative once expired).
    public func remainingValidity(at now: Date) -> TimeInterval {
        expiresAt.timeIntervalSince(now)
    }

    /// Whether the token stays valid for at least `seconds` after `now`.
    public func isValid(for seconds: TimeInterval, at now: Date) -> Bool {
        remainingValidity(at: now) >= seconds
    }

    public var description: String { "IDToken(redacted, expiresAt: \(expiresAt))" }
}
