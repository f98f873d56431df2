import Foundation
import SesameClient

/// The warning `sesamectl token --min-validity N` prints on standard error when the token it
/// got is valid for less than N seconds: the backend's tokens may simply not last that long
/// (the daemon then returns a fresh one anyway). Pure.
enum TokenValidityWarning {
    /// The warning, or nil when the token stays valid for `minValidity` seconds from `now`.
    static func text(for token: SesameIDToken, minValidity: Int, now: Date) -> String? {
        let remaining = token.expiresAt.timeIntervalSince(now)
        guard remaining < Double(minValidity) else { return nil }
        let lifetime = token.expiresAt.timeIntervalSince(token.issuedAt)
        return "warning: the token is valid only for \(words(remaining)), less than --min-validity \(minValidity) "
            + "(the backend's tokens last \(words(lifetime))); get a new one with `sesamectl token` when it expires"
    }

    /// "59 minutes", "1 minute", "45 seconds".
    static func words(_ seconds: TimeInterval) -> String {
        let whole = max(0, Int(seconds.rounded(.down)))
        if whole < 120 { return whole == 1 ? "1 second" : "\(whole) seconds" }
        let minutes = whole / 60
        return "\(minutes) minutes"
    }
}
