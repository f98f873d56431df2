import Foundation
import SesameClient

/// How `sesamectl` shows second factors and account changes to a person. Pure: the time and
/// whether to draw in colour are passed in.
enum SecondFactorText {
    /// One line per factor, for `mfa list`.
    static func factorLines(_ factors: [SesameSecondFactor]) -> String {
        guard !factors.isEmpty else { return "no second factors: add one with `sesamectl mfa enroll`" }
        return factors.map { factor in
            var line = "\(factor.factorId)  \(factor.type)"
            if let name = factor.displayName, !name.isEmpty { line += "  \(name)" }
            if let enrolledAt = factor.enrolledAt { line += "  since \(StatusRenderer.timeWords(enrolledAt))" }
            return line
        }.joined(separator: "\n")
    }

    /// The `status` row of the factors: "totp (Phone)", "none".
    static func factorsWords(_ factors: [SesameSecondFactor]) -> String {
        guard !factors.isEmpty else { return "none" }
        return factors.map { factor in
            factor.displayName.map { $0.isEmpty ? factor.type : "\(factor.type) (\($0))" } ?? factor.type
        }.joined(separator: ", ")
    }

    /// The `status` row of an open second-factor challenge.
    static func challengeWords(_ challenge: SesameSecondFactorChallenge) -> String {
        "a sign-in waits for a code from an authenticator app until \(StatusRenderer.timeWords(challenge.expiresAt))"
    }

    /// What `mfa enroll` prints before asking for a code: the QR code of the `otpauth://` URI
    /// and the secret to type in by hand.
    static func enrollmentLines(_ enrollment: SesameTotpEnrollment, qr: Bool, colours: Bool) -> [String] {
        var lines: [String] = []
        if qr, let symbol = QRCode(encoding: enrollment.otpauthUri) {
            lines.append("Scan this QR code with your authenticator app (Google Authenticator, Aegis, 1Password, …):")
            lines += TerminalQRCode(colours: colours).lines(for: symbol)
            lines.append("")
            lines.append("or add this key by hand (time-based, 6 digits, 30 s):")
        } else {
            lines.append("Add this key to your authenticator app (time-based, 6 digits, 30 s):")
        }
        lines += ["", "    \(grouped(enrollment.secret))", ""]
        return lines
    }

    /// A base32 secret in groups of four, as apps show them.
    static func grouped(_ secret: String) -> String {
        var groups: [String] = []
        var rest = Substring(secret)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(4)))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }

    /// `mfa enroll`'s last line: what changed.
    static func enrolled(_ state: SesameState, before: [SesameSecondFactor]) -> String {
        let added = (state.user?.factors ?? []).filter { factor in !before.contains { $0.factorId == factor.factorId } }
        let name = added.first.map { factor in
            (factor.displayName.map { "\"\($0)\" " } ?? "") + "(factor \(factor.factorId))"
        }
        return "second factor enrolled\(name.map { ": " + $0 } ?? ""); from now on a sign-in to this account "
            + "asks for a code from your authenticator app (`sesamectl mfa list` shows the factors)"
    }
}
