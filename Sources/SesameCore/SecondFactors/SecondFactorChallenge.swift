import Foundation

/// The open second-factor challenge of a sign-in (`State.secondFactor`, and the data of
/// `second-factor-required`): what every program may show. Never a secret: the backend's
/// pending credential stays in the daemon (``PendingSecondFactor``).
public struct SecondFactorChallenge: Sendable, Hashable {
    /// The daemon's id of the challenge, given back to `completeSecondFactor`.
    public var challengeId: String
    /// The factors that can answer it.
    public var factors: [SecondFactor]
    public var expiresAt: Date

    public init(challengeId: String, factors: [SecondFactor], expiresAt: Date) {
        self.challengeId = challengeId
        self.factors = factors
        self.expiresAt = expiresAt
    }
}
