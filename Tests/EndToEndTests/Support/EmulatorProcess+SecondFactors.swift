import Foundation
import SesameEmulator
import SesameLocalAPI
import SesameTesting
import Testing

/// What the tests of second factors and account security do at the backend: read the mails the
/// emulator "sent" and act on them as their owner would, and age sign-ins.
extension EmulatorProcess {
    /// The current code of an authenticator app holding `secret`, on the emulator's clock (the
    /// system clock moved by the `clockSkewSeconds` fault).
    static func totpCode(_ secret: String, skewSeconds: Int = 0) throws -> String {
        let totp = try #require(TOTP(base32: secret))
        return totp.code(at: Date().addingTimeInterval(TimeInterval(skewSeconds)))
    }

    /// A code that is certainly wrong now (the current one with its last digit changed).
    static func wrongTotpCode(_ secret: String) throws -> String {
        let right = try totpCode(secret)
        let last = right.last == "0" ? "1" : "0"
        return String(right.dropLast()) + last
    }

    /// The owner of `email` confirms it (Firebase needs a verified address before a second
    /// factor is enrolled; GoTrue's test users are confirmed already).
    func confirmAddress(_ email: String) async throws {
        guard backend == .firebase else { return }
        let link = try #require(try await oobLink(email: email, requestType: "VERIFY_EMAIL"), "no VERIFY_EMAIL mail")
        try await applyFirebaseOobLink(link)
    }

    /// Applies an out-of-band link as the emulator's action page does (`accounts:update {oobCode}`).
    func applyFirebaseOobLink(_ link: String) async throws {
        let code = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
        let (status, body) = try await request(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:update?key=k", json: ["oobCode": .string(code)])
        guard status == 200 else { throw HarnessError("applying the link failed: \(status) \(body.jsonString)") }
    }

    /// The owner confirms an address change from `old` to `new`: Firebase's
    /// `VERIFY_AND_CHANGE_EMAIL` link; GoTrue's email-change mails (to both addresses with
    /// secure email change on), each verified by its token hash.
    func confirmEmailChange(from old: String, to new: String) async throws {
        if backend == .firebase {
            let record = try await EmulatorHTTP().oobCodes("http://\(authHost)").last {
                $0["requestType"]?.stringValue == "VERIFY_AND_CHANGE_EMAIL"
                    && ($0["newEmail"]?.stringValue == new.lowercased() || $0["email"]?.stringValue == new.lowercased())
            }
            let link = try #require(record?["oobLink"]?.stringValue, "no VERIFY_AND_CHANGE_EMAIL mail")
            try await applyFirebaseOobLink(link)
            return
        }
        // GoTrue with autoconfirm on (the emulator's default): the new address's code alone
        // applies the change (and voids the one sent to the old address).
        let mail = try await supabaseMessages().last {
            ($0["type"]?.stringValue ?? "").hasPrefix("email_change") && $0["email"]?.stringValue == new.lowercased()
        }
        let hash = try #require(mail?["hashed_token"]?.stringValue, "no email_change mail to the new address")
        let (status, body) = try await supabaseRequest(
            "POST", "/auth/v1/verify", json: ["type": "email_change", "token_hash": .string(hash)], admin: false)
        guard status == 200 else { throw HarnessError("confirming the change failed: \(status) \(body.jsonString)") }
    }

    /// The proof of the newest password-reset mail to `email`: the link, or (Supabase, `code`)
    /// the one-time code.
    func passwordResetProof(_ email: String, code: Bool = false) async throws -> String {
        if backend == .firebase {
            return try #require(try await oobLink(email: email, requestType: "PASSWORD_RESET"), "no reset mail")
        }
        let mail = try await supabaseMessages().last {
            $0["type"]?.stringValue == "recovery" && $0["email"]?.stringValue == email.lowercased()
        }
        let key = code ? "otp" : "link"
        return try #require(mail?[key]?.stringValue, "no recovery mail")
    }

    /// The newest reauthentication code GoTrue mailed to `email`.
    func reauthenticationCode(_ email: String) async throws -> String {
        let mail = try await supabaseMessages().last {
            $0["type"]?.stringValue == "reauthentication" && $0["email"]?.stringValue == email.lowercased()
        }
        return try #require(mail?["otp"]?.stringValue, "no reauthentication mail")
    }

    /// Moves the emulator's clock ahead, so that sign-ins made before are no longer recent.
    func ageSignIns(bySeconds seconds: Int) async throws {
        try await faults(["clockSkewSeconds": .integer(Int64(seconds))])
    }
}
