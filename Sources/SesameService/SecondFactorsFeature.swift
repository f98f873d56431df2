import Foundation
import SesameCore

/// Second factors at sign-in (PROTOCOL.md, "Second factors"), reached as
/// `service.secondFactors`: every sign-in path that reaches an account with a second factor
/// opens the one challenge, and ``verify(challengeId:code:factorId:)`` finishes it with the
/// result the first call would have had. A feature beside the owner: its state is its own
/// (``SessionFeatures/secondFactors``), and it reaches the session only through ``SessionHost``.
public struct SecondFactorsFeature: Sendable {
    let host: any SessionHost

    /// Finishes the sign-in of the open challenge with a code: the result the first call would
    /// have had (a merge from a guest included).
    ///
    /// An id that is not the open challenge's (answered, replaced, expired, or from before a
    /// restart) is `expired-sign-in-flow`: there is nothing to answer, the person signs in
    /// again. A code that is not six digits is `invalid-verification-code` without asking the
    /// backend. A wrong code, or a backend that cannot be reached, leaves the challenge open,
    /// but the ``SecondFactorGuesses/wrongCodesInARow``-th wrong code in a row ends it:
    /// `too-many-requests` with `retryAfterMs`, the lockout before a challenge opens again.
    public func verify(
        challengeId: String, code: String, factorId: String?
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        try await Self.verify(challengeId: challengeId, code: code, factorId: factorId, on: host)
    }

    /// Cancels the open challenge `challengeId` (`cancelSignIn` with its id); whether it was open.
    public func cancel(_ challengeId: String) async -> Bool {
        await Self.cancel(challengeId, on: host)
    }

    private static func verify(
        challengeId: String, code: String, factorId: String?, on host: isolated some SessionHost
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        try await host.verifySecondFactor(challengeId: challengeId, code: code, factorId: factorId)
    }

    private static func cancel(_ challengeId: String, on host: isolated some SessionHost) -> Bool {
        host.cancelSecondFactor(challengeId)
    }
}

extension SessionService {
    /// Second factors at sign-in: `service.secondFactors.verify(…)`, `.cancel(…)`.
    public nonisolated var secondFactors: SecondFactorsFeature { SecondFactorsFeature(host: self) }
}
