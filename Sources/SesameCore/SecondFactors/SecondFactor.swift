import Foundation

/// A second factor enrolled on the account (`User.factors`). Only TOTP authenticator apps are
/// enrolled by Sesame; other kinds the backend reports pass through with their own `type`.
public struct SecondFactor: Sendable, Hashable, Codable {
    /// The backend's id of the factor (Firebase `mfaEnrollmentId`, a GoTrue factor id).
    public var factorId: String
    /// `totp` (or the backend's kind, such as `phone`, passed through).
    public var type: String
    public var displayName: String?
    public var enrolledAt: Date?

    public init(factorId: String, type: String = "totp", displayName: String? = nil, enrolledAt: Date? = nil) {
        self.factorId = factorId
        self.type = type
        self.displayName = displayName
        self.enrolledAt = enrolledAt
    }
}
