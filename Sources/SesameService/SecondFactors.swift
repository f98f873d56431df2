import Foundation
import SesameCore

/// The second-factor challenge, which lives in the daemon's memory only (PROTOCOL.md, "Second
/// factors"): the one open challenge with the backend's pending credential, and the daemon's
/// bound on wrong codes. The account-security secrets are ``AccountSecrets``.
///
/// Owned by ``SessionService`` and used only inside it. Nothing here reaches the keyring, a
/// state, an event, a log line or an error: clients see ``SecondFactorChallenge`` (ids, factors,
/// expiry) and nothing else. A restart drops all of it; the session is as the keyring holds it.
struct SecondFactors {
    /// The open challenge and what only the daemon may know about it.
    struct Open {
        let challenge: SecondFactorChallenge
        let pending: PendingSecondFactor
        /// What the sign-in that opened it would have done with its tokens.
        let finish: SecondFactorSignIn.Finish
        /// Ends the child task that closes the challenge when it expires.
        let ending = EndSignal()
    }

    /// The daemon's own limit on a challenge (GoTrue's MFA challenge default): the earlier of
    /// this and the backend's expiry closes it.
    static let challengeLifetime: TimeInterval = 300

    /// Waiting on the service's clock (a challenge's expiry).
    let sleeper: any Sleeper
    private(set) var open: Open?
    /// The daemon's bound on wrong codes (kept across challenges and a shutdown's `abandon`).
    var guesses = SecondFactorGuesses()
    /// The lockout whose refused sign-ins were logged already (one line per lockout).
    var loggedLockout: Date?

    init(sleeper: any Sleeper) {
        self.sleeper = sleeper
    }

    /// What `State.secondFactor` shows.
    var challenge: SecondFactorChallenge? { open?.challenge }

    /// Opens a challenge for `pending`, replacing the open one (whose expiry is ended). The id
    /// is the daemon's own, never the backend's credential.
    mutating func begin(
        _ pending: PendingSecondFactor, finish: SecondFactorSignIn.Finish, now: Date
    ) -> Open {
        let limit = now.addingTimeInterval(Self.challengeLifetime)
        let challenge = SecondFactorChallenge(
            challengeId: UUID().uuidString.lowercased(), factors: pending.factors,
            expiresAt: min(pending.expiresAt ?? limit, limit))
        open?.ending.fire()
        let opened = Open(challenge: challenge, pending: pending, finish: finish)
        open = opened
        return opened
    }

    /// Closes the challenge `challengeId` if it is the open one; whether it was.
    mutating func close(_ challengeId: String) -> Bool {
        guard let current = open, current.challenge.challengeId == challengeId else { return false }
        current.ending.fire()
        open = nil
        return true
    }

    /// Drops everything (shutdown).
    mutating func abandon() {
        open?.ending.fire()
        open = nil
    }

    /// A well-formed one-time code: six digits.
    static func isWellFormed(_ code: String) -> Bool {
        code.count == 6 && code.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    }
}
