import Foundation
import SesameCore
import SesameEmulator
import SesameLocalAPI
import SesameSupabase
import SesameTesting
import Testing

/// The Supabase adapter's second factors and account security against the emulator's GoTrue,
/// over real HTTP: TOTP codes are computed from the enrolled secret, and a sign-in is aged with
/// the `clockSkewSeconds` fault instead of waiting.
@Suite("Supabase adapter: second factors and account security against the emulator")
struct SupabaseSecondFactorEmulatorTests {
    static func address(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
    }

    /// The `aal` claim of a GoTrue access token.
    static func aal(_ token: IDToken) -> String? {
        let parts = token.rawValue.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text), let claims = try? JSONValue.parse(Array(data)) else { return nil }
        return claims["aal"]?.stringValue
    }

    /// A six-digit code that no step near now accepts.
    static func wrongCode(for totp: TOTP) -> String {
        let near = Set((-3...3).map { totp.code(at: Date().addingTimeInterval(Double($0) * TOTP.period)) })
        return ["000000", "111111", "222222", "333333"].first { !near.contains($0) } ?? "444444"
    }

    @Test("enrol TOTP; sign-ins of the account stop at aal1 with no tokens; the code completes them; unenrol")
    func secondFactorSignIn() async throws {
        try await SupabaseConformanceBackend.with { b in
            let email = Self.address("mfa")
            let account = try await b.supabase.signUp(email: email, password: "secret-pw", linkingTo: nil)
            let start = try await b.supabase.startTotpEnrollment(account.idToken, displayName: "phone")
            #expect(start.otpauthUri.hasPrefix("otpauth://totp/") && start.otpauthUri.contains(start.secret))
            let totp = try #require(TOTP(base32: start.secret))
            let refused = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.finishTotpEnrollment(
                    account.idToken, start, code: Self.wrongCode(for: totp), displayName: "phone")
            }
            #expect(refused?.authError.reason == .invalidVerificationCode)
            let raised = try #require(
                try await b.supabase.finishTotpEnrollment(
                    account.idToken, start, code: totp.code(at: Date()), displayName: "phone"))
            #expect(Self.aal(raised.idToken) == "aal2")
            let enrolled = try await b.supabase.lookup(raised.idToken)
            #expect(enrolled.factors.map(\.factorId) == [start.handle])
            #expect(enrolled.factors.first?.displayName == "phone")

            // Password: the first factor is accepted, no session is handed out.
            let stopped = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.signIn(email: email, password: "secret-pw")
            }
            guard case .secondFactorRequired(let pending)? = stopped else {
                Issue.record("expected secondFactorRequired, got \(String(describing: stopped))")
                return
            }
            #expect(pending.uid == account.uid && pending.factors.map(\.factorId) == [start.handle])
            #expect(
                Self.aal(
                    IDToken(
                        rawValue: pending.credential, expiresAt: Date(), issuedAt: Date(), signInProvider: "password"))
                    == "aal1")
            let wrong = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.completeSecondFactor(
                    pending, factorId: start.handle, code: Self.wrongCode(for: totp))
            }
            #expect(wrong?.authError.reason == .invalidVerificationCode)
            let done = try await b.supabase.completeSecondFactor(
                pending, factorId: start.handle, code: totp.code(at: Date()))
            #expect(done.uid == account.uid && Self.aal(done.idToken) == "aal2")
            // The aal1 refresh token cannot be turned into the raised session.
            await #expect(throws: RemoteAuthError.accountGone(.sessionRevoked)) {
                _ = try await b.supabase.refresh(RefreshToken(try #require(pending.secondaryCredential)))
            }
            #expect(
                Self.aal(
                    IDToken(
                        rawValue: try await b.supabase.refresh(done.refreshToken).idToken.rawValue, expiresAt: Date(),
                        issuedAt: Date(), signInProvider: "password")) == "aal2")

            // An emailed code stops at the second factor too.
            try await b.supabase.sendSignInLink(email: email, continueUrl: nil)
            let byCode = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.signIn(
                    email: email, proof: try await b.emailSignInProof(for: email), linkingTo: nil)
            }
            guard case .secondFactorRequired? = byCode else {
                Issue.record("expected secondFactorRequired from the email code, got \(String(describing: byCode))")
                return
            }

            _ = try await b.supabase.unenrollFactor(done.idToken, factorId: start.handle)
            #expect(try await b.supabase.lookup(done.idToken).factors.isEmpty)
            let plain = try await b.supabase.signIn(email: email, password: "secret-pw")
            #expect(Self.aal(plain.idToken) == "aal1")
        }
    }

    @Test("secure password change: an aged session needs the mailed nonce; a wrong one is invalid-verification-code")
    func reauthenticationNonce() async throws {
        try await SupabaseConformanceBackend.with(arguments: ["--supabase-secure-password-change", "true"]) { b in
            let email = Self.address("reauth")
            let account = try await b.supabase.signUp(email: email, password: "first-pw", linkingTo: nil)
            // A fresh session changes the password without a nonce.
            _ = try await b.supabase.changePassword(
                account.idToken, newPassword: "second-pw", reauthenticationCode: nil)
            try await b.helper.faults(b.url, ["clockSkewSeconds": .integer(25 * 3600)])
            let aged = try await b.supabase.refresh(account.refreshToken)
            let old = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.changePassword(
                    aged.idToken, newPassword: "third-pw", reauthenticationCode: nil)
            }
            #expect(old?.authError.reason == .requiresRecentLogin)
            try await b.supabase.sendReauthenticationCode(aged.idToken)
            let mail = try await b.newestMessage(to: email)
            #expect(mail["type"]?.stringValue == "reauthentication")
            let nonce = try #require(mail["otp"]?.stringValue)
            let wrong = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.changePassword(
                    aged.idToken, newPassword: "third-pw", reauthenticationCode: nonce == "000000" ? "111111" : "000000"
                )
            }
            #expect(wrong?.authError.reason == .invalidVerificationCode)
            _ = try await b.supabase.changePassword(aged.idToken, newPassword: "third-pw", reauthenticationCode: nonce)
            #expect(try await b.supabase.signIn(email: email, password: "third-pw").uid == account.uid)
            #expect(b.supabase.recentSignInWindow == 86_400)
        }
    }

    @Test("an email change is pending until the new address confirms it; a taken address is email-already-in-use")
    func emailChange() async throws {
        try await SupabaseConformanceBackend.with { b in
            let before = Self.address("before")
            let after = Self.address("after")
            let account = try await b.supabase.signUp(email: before, password: "secret-pw", linkingTo: nil)
            let other = Self.address("other")
            _ = try await b.supabase.signUp(email: other, password: "secret-pw", linkingTo: nil)
            let taken = await #expect(throws: RemoteAuthError.self) {
                try await b.supabase.requestEmailChange(account.idToken, newEmail: other)
            }
            #expect(taken?.authError.reason == .emailAlreadyInUse)
            try await b.supabase.requestEmailChange(account.idToken, newEmail: after)
            let pending = try await b.supabase.lookup(account.idToken)
            #expect(pending.email == before && pending.pendingEmail == after)
            let code = try #require(try await b.newestMessage(to: after)["otp"]?.stringValue)
            let (status, _) = try await b.helper.call(
                "POST", b.url + "/auth/v1/verify",
                json: ["type": "email_change", "email": .string(after), "token": .string(code)],
                headers: [("apikey", b.anonKey)])
            #expect(status == 200)
            let changed = try await b.supabase.lookup(account.idToken)
            #expect(changed.email == after && changed.pendingEmail == nil)
        }
    }

    @Test("a password reset completes from the mailed code and from the link; the recovery session is ended")
    func passwordReset() async throws {
        try await SupabaseConformanceBackend.with { b in
            let byCode = Self.address("code")
            let account = try await b.supabase.signUp(email: byCode, password: "first-pw", linkingTo: nil)
            try await b.supabase.sendPasswordReset(email: byCode)
            let code = try #require(try await b.newestMessage(to: byCode)["otp"]?.stringValue)
            // Too short for any GoTrue project: refused before the code is spent.
            let weak = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.confirmPasswordReset(.code(code), email: byCode, newPassword: "abc")
            }
            #expect(weak?.authError.reason == .weakPassword)
            let logoutsBefore = try await b.calls()["logout"] ?? 0
            #expect(
                try await b.supabase.confirmPasswordReset(.code(code), email: byCode, newPassword: "second-pw")
                    == byCode)
            #expect(try await b.calls()["logout"] ?? 0 == logoutsBefore + 1)
            #expect(try await b.supabase.signIn(email: byCode, password: "second-pw").uid == account.uid)
            let spent = await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.confirmPasswordReset(.code(code), email: byCode, newPassword: "third-pw")
            }
            #expect(spent?.authError.reason == .invalidActionCode)

            let byLink = Self.address("link")
            _ = try await b.supabase.signUp(email: byLink, password: "first-pw", linkingTo: nil)
            try await b.supabase.sendPasswordReset(email: byLink)
            let link = try await b.emailSignInLink(for: byLink)
            #expect(
                try await b.supabase.confirmPasswordReset(.link(link), email: nil, newPassword: "second-pw") == byLink)
            _ = try await b.supabase.signIn(email: byLink, password: "second-pw")
        }
    }
}
