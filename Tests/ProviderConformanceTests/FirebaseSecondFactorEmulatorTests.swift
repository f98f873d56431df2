import Foundation
import SesameCore
import SesameEmulator
import SesameLocalAPI
import SesameTesting
import Testing

/// The Firebase adapter's second factors and account-security calls against the in-process
/// emulator over loopback HTTP: TOTP codes are computed from the shared secret, an old sign-in
/// is made with the `clockSkewSeconds` fault instead of waiting.
@Suite("Firebase adapter + emulator: second factors and account security")
struct FirebaseSecondFactorEmulatorTests {
    /// Marks the account's email verified (admin `accounts:update`), as Identity Platform needs
    /// before an enrolment.
    static func verifyEmail(_ b: FirebaseConformanceBackend, uid: String) async throws {
        let (status, body) = try await b.helper.call(
            "POST", b.authBase + "/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:update",
            json: ["localId": .string(uid), "emailVerified": true], headers: [("Authorization", "Bearer owner")])
        #expect(status == 200, "\(body.jsonString)")
    }

    static func code(_ secret: String, steps: Double = 0) throws -> String {
        try #require(TOTP(base32: secret)).code(at: Date().addingTimeInterval(steps * TOTP.period))
    }

    /// The newest out-of-band code record of `type` for `email`.
    static func oobRecord(_ b: FirebaseConformanceBackend, _ email: String, _ type: String) async throws -> JSONValue {
        let codes = try await b.helper.oobCodes(b.authBase)
        return try #require(codes.last { $0["email"]?.stringValue == email && $0["requestType"]?.stringValue == type })
    }

    /// What `call` threw; nil when it succeeded.
    func failure(_ call: () async throws(RemoteAuthError) -> Void) async -> RemoteAuthError? {
        do {
            try await call()
            return nil
        } catch {
            return error
        }
    }

    /// The refusal `call` ended with; nil when it succeeded or failed otherwise.
    func rejection(_ call: () async throws(RemoteAuthError) -> Void) async -> AuthError? {
        guard case .rejected(let error)? = await failure(call) else { return nil }
        return error
    }

    func reason(_ call: () async throws(RemoteAuthError) -> Void) async -> AuthError.Reason? {
        await rejection(call)?.reason
    }

    @Test("enrol TOTP, sign in → secondFactorRequired, finish with a computed code, withdraw")
    func totpLifecycle() async throws {
        try await FirebaseConformanceBackend.with { b in
            let p = b.provider
            let email = "totp-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let account = try await p.signUp(email: email, password: "secret-pw", linkingTo: nil)
            let unverified = await rejection { () async throws(RemoteAuthError) in
                _ = try await p.startTotpEnrollment(account.idToken, displayName: "Phone")
            }
            #expect(unverified?.reason == .operationNotAllowed)
            #expect(unverified?.message.contains("Verify your email first") == true)
            try await Self.verifyEmail(b, uid: account.uid)
            let start = try await p.startTotpEnrollment(account.idToken, displayName: "Phone")
            #expect(
                start.otpauthUri.hasPrefix(
                    "otpauth://totp/demo-project:\(email.replacingOccurrences(of: "@", with: "%40"))?secret=\(start.secret)&"
                ))
            #expect(
                await reason { () async throws(RemoteAuthError) in
                    _ = try await p.finishTotpEnrollment(account.idToken, start, code: "000000x", displayName: "Phone")
                } == .invalidVerificationCode)
            let current = try Self.code(start.secret)
            let enrolled = try #require(
                try await p.finishTotpEnrollment(account.idToken, start, code: current, displayName: "Phone"))
            let factors = try await p.lookup(enrolled.idToken).factors
            #expect(factors.count == 1 && factors.first?.type == "totp" && factors.first?.displayName == "Phone")
            let factorId = try #require(factors.first?.factorId)

            let firstStep = await failure { () async throws(RemoteAuthError) in
                _ = try await p.signIn(email: email, password: "secret-pw")
            }
            guard case .secondFactorRequired(let pending)? = firstStep else {
                Issue.record("expected secondFactorRequired, got \(String(describing: firstStep))")
                return
            }
            #expect(pending.uid == account.uid && pending.factors.map(\.factorId) == [factorId])
            let stale = try Self.code(start.secret, steps: 4)
            #expect(
                await reason { () async throws(RemoteAuthError) in
                    _ = try await p.completeSecondFactor(pending, factorId: factorId, code: stale)
                } == .invalidVerificationCode)
            let now = try Self.code(start.secret)
            let signedIn = try await p.completeSecondFactor(pending, factorId: factorId, code: now)
            #expect(signedIn.uid == account.uid && !signedIn.isNewUser)
            #expect(
                await reason { () async throws(RemoteAuthError) in
                    _ = try await p.completeSecondFactor(pending, factorId: factorId, code: now)
                } == .expiredSignInFlow)

            let withdrawn = try #require(try await p.unenrollFactor(signedIn.idToken, factorId: factorId))
            #expect(try await p.lookup(withdrawn.idToken).factors.isEmpty)
            #expect(try await p.signIn(email: email, password: "secret-pw").uid == account.uid)
        }
    }

    @Test("changePassword returns working tokens; the new password signs in, the old one no longer")
    func changePassword() async throws {
        try await FirebaseConformanceBackend.with { b in
            let p = b.provider
            let account = try await p.signUp(email: "pw-change@example.com", password: "secret-pw", linkingTo: nil)
            #expect(
                await reason { () async throws(RemoteAuthError) in
                    _ = try await p.changePassword(account.idToken, newPassword: "x", reauthenticationCode: nil)
                } == .weakPassword)
            let grant = try #require(
                try await p.changePassword(account.idToken, newPassword: "n3w-secret", reauthenticationCode: nil))
            #expect(try await p.lookup(grant.idToken).uid == account.uid)
            #expect(try await p.signIn(email: "pw-change@example.com", password: "n3w-secret").uid == account.uid)
            #expect(
                await reason { () async throws(RemoteAuthError) in
                    _ = try await p.signIn(email: "pw-change@example.com", password: "secret-pw")
                } == .invalidLoginCredentials)
        }
    }

    @Test("requestEmailChange, then the link applied: the address moves and older sessions end")
    func emailChange() async throws {
        try await FirebaseConformanceBackend.with { b in
            let p = b.provider
            let account = try await p.signUp(email: "mover@example.com", password: "secret-pw", linkingTo: nil)
            _ = try await p.signUp(email: "occupied@example.com", password: "secret-pw", linkingTo: nil)
            let taken = await rejection { () async throws(RemoteAuthError) in
                try await p.requestEmailChange(account.idToken, newEmail: "occupied@example.com")
            }
            #expect(taken?.reason == .emailAlreadyInUse && taken?.email == "occupied@example.com")
            try await p.requestEmailChange(account.idToken, newEmail: "moved@example.com")
            #expect(try await p.lookup(account.idToken).email == "mover@example.com")
            let record = try await Self.oobRecord(b, "mover@example.com", "VERIFY_AND_CHANGE_EMAIL")
            #expect(record["newEmail"] == "moved@example.com")
            // The clock moves on a little, as a person opening the mail does.
            try await b.helper.faults(b.authBase, ["clockSkewSeconds": 2])
            let (status, _) = try await b.helper.call(
                "POST", b.authBase + "/identitytoolkit.googleapis.com/v1/accounts:update?key=fake-api-key",
                json: ["oobCode": record["oobCode"]!])
            #expect(status == 200)
            // Identity Platform ends the sessions of an account whose address changed.
            await #expect(throws: RemoteAuthError.idTokenRejected) { _ = try await p.lookup(account.idToken) }
            // TOKEN_EXPIRED: the credentials changed, told apart from a deleted or disabled account.
            await #expect(throws: RemoteAuthError.accountGone(.credentialsChanged)) {
                _ = try await p.refresh(account.refreshToken)
            }
            let again = try await p.signIn(email: "moved@example.com", password: "secret-pw")
            #expect(again.uid == account.uid)
            #expect(try await p.lookup(again.idToken).email == "moved@example.com")
            try await b.clearFaults()
        }
    }

    @Test("confirmPasswordReset from the mailed link and from the bare code")
    func passwordReset() async throws {
        try await FirebaseConformanceBackend.with { b in
            let p = b.provider
            _ = try await p.signUp(email: "forgot@example.com", password: "secret-pw", linkingTo: nil)
            try await p.sendPasswordReset(email: "forgot@example.com")
            let link = try #require(
                try await Self.oobRecord(b, "forgot@example.com", "PASSWORD_RESET")["oobLink"]?.stringValue)
            #expect(
                try await p.confirmPasswordReset(.link(link), email: nil, newPassword: "n3w-secret")
                    == "forgot@example.com")
            #expect(
                await reason { () async throws(RemoteAuthError) in
                    _ = try await p.confirmPasswordReset(.link(link), email: nil, newPassword: "n3w-secret")
                } == .invalidActionCode)
            _ = try await p.signIn(email: "forgot@example.com", password: "n3w-secret")

            try await p.sendPasswordReset(email: "forgot@example.com")
            let code = try #require(
                try await Self.oobRecord(b, "forgot@example.com", "PASSWORD_RESET")["oobCode"]?.stringValue)
            #expect(
                try await p.confirmPasswordReset(
                    .code(code), email: "forgot@example.com", newPassword: "an0ther-secret")
                    == "forgot@example.com")
            _ = try await p.signIn(email: "forgot@example.com", password: "an0ther-secret")
        }
    }

    @Test("with recentLoginSeconds, an aged sign-in is requires-recent-login until a new sign-in")
    func requiresRecentLogin() async throws {
        var configuration = EmulatorConfiguration()
        configuration.recentLoginSeconds = 300
        try await FirebaseConformanceBackend.with(configuration) { b in
            let p = b.provider
            let account = try await p.signUp(email: "aged@example.com", password: "secret-pw", linkingTo: nil)
            try await b.helper.faults(b.authBase, ["clockSkewSeconds": 400])
            let token = account.idToken
            #expect(
                await reason { () async throws(RemoteAuthError) in
                    _ = try await p.changePassword(token, newPassword: "n3w-secret", reauthenticationCode: nil)
                } == .requiresRecentLogin)
            #expect(
                await reason { () async throws(RemoteAuthError) in
                    try await p.requestEmailChange(token, newEmail: "aged-new@example.com")
                } == .requiresRecentLogin)
            #expect(
                await reason { () async throws(RemoteAuthError) in try await p.deleteAccount(token) }
                    == .requiresRecentLogin)
            let fresh = try await p.signIn(email: "aged@example.com", password: "secret-pw")
            #expect(
                try await p.changePassword(fresh.idToken, newPassword: "n3w-secret", reauthenticationCode: nil) != nil)
            try await b.clearFaults()
        }
    }
}
