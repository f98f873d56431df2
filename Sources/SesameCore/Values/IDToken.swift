import Foundation

/// A backend's ID token (a JWT) with the facts the daemon needs about it.
///
/// The raw value is a secret: `description` never shows it, so the token cannot end up in a
/// log line or an error message by accident.
public struct IDToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The compact JWT as issued by the backend.
    public let rawValue: String
    /// When the backend says the token stops being valid, at the latest ``latestExpiry``.
    public let expiresAt: Date
    /// When the token was obtained.
    public let issuedAt: Date
    /// How the person signed in, as a provider id of the wire protocol (`anonymous`, `password`,
    /// `google.com`, …). The adapter reads it from its backend's token and maps it to these names.
    public let signInProvider: String

    /// The latest expiry kept: 9999-12-31T23:59:59Z, the last moment an RFC 3339 time (and so
    /// the wire) can write. A backend's larger `expiresIn` (or such a date in an old keyring)
    /// is capped to it; any expiry before it is kept exactly as the backend said.
    public static let latestExpiry = Date(timeIntervalSince1970: 253_402_300_799)

    /// - Parameter expiresAt: capped at ``latestExpiry``; not-a-number counts as `issuedAt`
    ///   (expired).
    public init(rawValue: String, expiresAt: Date, issuedAt: Date, signInProvider: String) {
        self.rawValue = rawValue
        self.issuedAt = min(issuedAt, Self.latestExpiry)
        let seconds = expiresAt.timeIntervalSince1970
        if seconds.isNaN {
            self.expiresAt = self.issuedAt
        } else {
            self.expiresAt = min(expiresAt, Self.latestExpiry)
        }
        self.signInProvider = signInProvider
    }

    /// Decodes through ``init(rawValue:expiresAt:issuedAt:signInProvider:)``, so a keyring
    /// written with an absurd expiry loads capped.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            rawValue: try container.decode(String.self, forKey: .rawValue),
            expiresAt: try container.decode(Date.self, forKey: .expiresAt),
            issuedAt: try container.decode(Date.self, forKey: .issuedAt),
            signInProvider: try container.decode(String.self, forKey: .signInProvider))
    }

    /// How far in the future an `issuedAt` may be before the daemon stops believing the token's
    /// dates (a minute: clocks that differ a little, a keyring written just before a restart).
    public static let futureIssueTolerance: TimeInterval = 60

    /// Whether the token says it was obtained later than `now` (beyond
    /// ``futureIssueTolerance``): the calendar went back since, across a restart (a dead RTC,
    /// a clock set by hand), so how long it has left cannot be known.
    public func isIssuedInTheFuture(at now: Date) -> Bool {
        issuedAt.timeIntervalSince(now) > Self.futureIssueTolerance
    }

    /// Seconds of validity left at `now` (negative once expired); zero for a token issued in
    /// the future (``isIssuedInTheFuture(at:)``), whose validity is unknown.
    public func remainingValidity(at now: Date) -> TimeInterval {
        isIssuedInTheFuture(at: now) ? 0 : expiresAt.timeIntervalSince(now)
    }

    /// Whether the token stays valid for at least `seconds` after `now`; never for a token
    /// issued in the future.
    public func isValid(for seconds: TimeInterval, at now: Date) -> Bool {
        !isIssuedInTheFuture(at: now) && remainingValidity(at: now) >= seconds
    }

    public var description: String { "IDToken(redacted, expiresAt: \(expiresAt))" }
}
