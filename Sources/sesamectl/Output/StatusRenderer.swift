import Foundation
import SesameClient

import enum SesameCore.RFC3339

/// How `sesamectl` shows a state to a person. Pure: the time is passed in.
enum StatusRenderer {
    /// The multi-line `status` report: status, uid, kind of account, email (and one waiting for
    /// confirmation), second factors, username, token validity, connectivity, an open sign-in
    /// or second-factor challenge, and pending merges.
    static func render(_ state: SesameState, now: Date) -> String {
        var rows: [(String, String)] = [("status", statusWords(state.status))]
        if let user = state.user {
            rows.append(("uid", user.uid))
            rows.append(("account", user.isAnonymous ? "anonymous (guest)" : accountWords(user)))
            if let email = user.email {
                rows.append(
                    (
                        "email",
                        email + (user.emailVerified ? " (verified)" : " (not verified: run `sesamectl verify-email`)")
                    ))
            }
            if let pending = user.pendingEmail {
                rows.append(("pending email", pending + " (not yet confirmed: open the link mailed to \(pending))"))
            }
            if !user.isAnonymous { rows.append(("second factors", SecondFactorText.factorsWords(user.factors))) }
            if let username = user.username {
                rows.append(("username", username))
            } else if state.needsUsername {
                rows.append(("username", "none, but one is required: run `sesamectl username set NAME`"))
            }
            if let displayName = user.displayName { rows.append(("display name", displayName)) }
        }
        rows.append(("token", tokenWords(state, now: now)))
        rows.append(("connectivity", connectivityWords(state, now: now)))
        if let prompt = state.signInPrompt { rows.append(("sign-in", promptWords(prompt))) }
        if let challenge = state.secondFactor {
            rows.append(("second factor", SecondFactorText.challengeWords(challenge)))
        }
        if state.pendingMerges.isEmpty {
            rows.append(("pending merges", "none"))
        } else {
            rows.append(("pending merges", "\(state.pendingMerges.count) (`sesamectl merges list`)"))
        }
        let width = rows.map(\.0.count).max()! + 3
        return rows.map { label, value in
            (label + ":").padding(toLength: width, withPad: " ", startingAt: 0) + value
        }.joined(separator: "\n")
    }

    /// One line, for the result of a command: "anonymous (uid …)", "authenticated as … (uid …)".
    static func oneLine(_ state: SesameState) -> String {
        guard let user = state.user else { return statusWords(state.status) }
        if user.isAnonymous { return "anonymous guest (uid \(user.uid))" }
        let who = user.email ?? user.username ?? user.displayName ?? user.providers.joined(separator: ", ")
        // An account with nothing to name it by (a custom token's) is its uid.
        if who.isEmpty { return "signed in as uid \(user.uid)" }
        return "signed in as \(who) (uid \(user.uid))"
    }

    static func statusWords(_ status: SesameStatus) -> String {
        switch status {
        case .starting: "starting (the daemon is loading its keyring)"
        case .signedOut: "signed out"
        default: status.rawValue
        }
    }

    static func accountWords(_ user: SesameUser) -> String {
        user.providers.isEmpty
            ? "account without sign-in methods" : "account (signs in with \(user.providers.joined(separator: ", ")))"
    }

    /// `online`, `offline`, or which operation the backend limited and how long the daemon
    /// waits before it tries again by itself.
    static func connectivityWords(_ state: SesameState, now: Date) -> String {
        guard state.connectivity == .rateLimited, let limit = state.rateLimit else {
            return state.connectivity.rawValue
        }
        let seconds = max(0, Int(limit.retryAt.timeIntervalSince(now).rounded(.up)))
        let wait = seconds == 0 ? "now" : seconds < 120 ? "in \(seconds) s" : "in \((seconds + 59) / 60) min"
        let held = state.tokenExpiresAt.map { $0 > now } == true ? "; the held token is still served" : ""
        return "rate-limited: the backend limited \(limit.operation); sesamed tries again by itself \(wait)"
            + " (at \(RFC3339.format(limit.retryAt)))\(held)"
    }

    static func tokenWords(_ state: SesameState, now: Date) -> String {
        guard let minutes = state.tokenValidityMinutes(now: now) else { return "none" }
        if minutes == 0, let expiry = state.tokenExpiresAt, expiry <= now { return "expired" }
        return "valid for \(minutes) min"
    }

    /// The open sign-in flow: what the person is to open and type, and until when.
    static func promptWords(_ prompt: SesameSignInPrompt) -> String {
        var words = "\(prompt.providerId) \(prompt.flow) flow open until \(timeWords(prompt.expiresAt))"
        if let url = prompt.verificationUriComplete ?? prompt.verificationUri { words += ": open \(url)" }
        if let code = prompt.userCode { words += ", code \(code)" }
        return words
    }

    /// One line per pending merge, for `merges list`.
    static func mergeLines(_ merges: [SesameMerge]) -> String {
        guard !merges.isEmpty else { return "no pending merges" }
        return merges.map { merge in
            "\(merge.mergeId)  \(merge.fromUid) -> \(merge.toUid)  since \(timeWords(merge.createdAt))"
        }.joined(separator: "\n")
    }

    static func timeWords(_ date: Date) -> String {
        RFC3339.format(date)
    }
}
