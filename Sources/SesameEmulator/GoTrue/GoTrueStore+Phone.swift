import Foundation

/// Phone OTPs with the phone provider off: GoTrue still checks the number (verify.go, phone.go)
/// and then finds no user with it.
extension GoTrueStore {
    /// `POST /verify` with a token and a phone but no email: 400 `validation_failed` "Invalid
    /// phone number format (E.164 required)" for a malformed number, else 403 `otp_expired`, as
    /// GoTrue answers when no user has the number (the emulator has no phone users).
    static func refusePhoneVerification(_ body: VerifyBody) throws(GoTrueError) {
        guard body.type?.isEmpty == false, let phone = body.phone, !phone.isEmpty, body.email?.isEmpty ?? true,
            body.token?.isEmpty == false, body.tokenHash?.isEmpty ?? true
        else { return }
        guard isE164(phone) else { throw .validation("Invalid phone number format (E.164 required)") }
        throw .otpExpired
    }

    /// phone.go: without a leading `+` and spaces, a digit 1-9 then 1 to 14 digits.
    static func isE164(_ raw: String) -> Bool {
        let digits = (raw.hasPrefix("+") ? String(raw.dropFirst()) : raw).replacingOccurrences(of: " ", with: "")
        guard let first = digits.first, first != "0", (2...15).contains(digits.count) else { return false }
        return digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
