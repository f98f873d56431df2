/// The one-time codes GoTrue mails, the mails "sent" (`/sesame/v1/supabase/messages`), the last mail times.
struct GoTrueMailbox: Sendable {
    var codes: [OneTimeCode] = []
    var messages: [SupabaseMessage] = []
    /// When `/otp` or `/recover` last mailed an address (GoTrue's per-user send timer).
    var lastSent: [String: Int] = [:]

    /// `GOTRUE_SMTP_MAX_FREQUENCY`: seconds between two mails to one address.
    static let sendInterval = 60
    /// `GOTRUE_MAILER_OTP_EXP`: lifetime of a one-time code, seconds.
    static let codeLifetime = 86_400

    /// GoTrue's `validateSentWithinFrequencyLimit`: 429 while the last mail, at `sentAt`, is under a minute old.
    static func checkTimer(_ sentAt: Int?, now: Int) throws(GoTrueError) {
        guard let sentAt, now - sentAt < sendInterval * 1000 else { return }
        throw .overEmailSendRateLimit(seconds: max(1, (sentAt + sendInterval * 1000 - now) / 1000))
    }

    /// Whether `code` is still within its lifetime at `now`.
    static func isFresh(_ code: OneTimeCode, now: Int) -> Bool { now - code.sentAt <= codeLifetime * 1000 }

    /// Voids every code of `userId` (that `matching` admits).
    mutating func void(codesOf userId: String, matching: (OneTimeCode) -> Bool = { _ in true }) {
        codes.removeAll { $0.userId == userId && matching($0) }
    }
}
