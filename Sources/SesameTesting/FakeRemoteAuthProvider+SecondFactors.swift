import Foundation
import SesameCore

/// What the fake keeps for second factors and account security. A fake for pure domain tests:
/// codes are TOTP-like (six digits from the secret and the clock's 30-second step, ±1 step
/// accepted; ``FakeRemoteAuthProvider/code(secret:at:)`` computes them) but not RFC 6238.
public struct FakeAccountSecurity: Sendable {
    struct Factor: Sendable {
        var factor: SecondFactor
        var secret: String
    }
    struct Pending: Sendable {
        var uid: String
        var provider: String
        var isNew: Bool
        var expiresAt: Date
    }
    var factorsByUid: [String: [Factor]] = [:]
    var pendings: [String: Pending] = [:]
    var enrollments: [String: (uid: String, secret: String)] = [:]
    var authTimes: [String: Date] = [:]
    /// Sensitive calls need a sign-in younger than this; nil: never (the default).
    var recentLoginWindow: TimeInterval?
    var reauthCodes: [String: String] = [:]
    var emailChanges: [String: String] = [:]
    var resetProofs: [String: String] = [:]
    var lastReset: [String: String] = [:]
    /// Whether lookups report a pending address change (as Supabase's `new_email`); Firebase does not.
    var reportsPendingEmail = false
    /// How long the backend accepts a pending second factor.
    var pendingLifetime: TimeInterval = 600

    func factors(of uid: String) -> [SecondFactor] { factorsByUid[uid, default: []].map(\.factor) }
}

extension FakeRemoteAuthProvider {
    public nonisolated var recentSignInWindow: TimeInterval { 300 }

    // MARK: Knobs and test helpers

    /// The code the fake takes for `secret` at `date` (six digits, 30-second steps).
    public nonisolated static func code(secret: String, at date: Date) -> String {
        code(secret: secret, step: Int(date.timeIntervalSince1970 / 30))
    }

    private nonisolated static func code(secret: String, step: Int) -> String {
        var hash: UInt64 = 1_469_598_103_934_665_603
        for byte in (secret + ":" + String(step)).utf8 {
            hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211
        }
        let value = Int(hash % 1_000_000)
        return String(repeating: "0", count: 6 - String(value).count) + String(value)
    }

    /// Gives `uid` an active TOTP factor with `secret`; returns its id.
    @discardableResult
    public func addTotpFactor(uid: String, secret: String = "FAKESECRET", displayName: String? = "phone") -> String {
        nextNumber += 1
        let factor = SecondFactor(factorId: "factor-\(nextNumber)", displayName: displayName, enrolledAt: clock.date)
        security.factorsByUid[uid, default: []].append(.init(factor: factor, secret: secret))
        return factor.factorId
    }
    /// Sensitive calls (delete, password and address changes, unenrolment) need a sign-in
    /// younger than `seconds`; nil turns the check off.
    public func setRecentLoginWindow(_ seconds: TimeInterval?) { security.recentLoginWindow = seconds }
    public func setReportsPendingEmail(_ value: Bool) { security.reportsPendingEmail = value }
    public func setPendingLifetime(_ seconds: TimeInterval) { security.pendingLifetime = seconds }
    /// The reauthentication code last mailed to `uid`.
    public func reauthenticationCode(of uid: String) -> String? { security.reauthCodes[uid] }
    /// The owner of the new address confirms the change asked for `uid`.
    public func confirmEmailChange(uid: String) {
        guard let address = security.emailChanges.removeValue(forKey: uid) else { return }
        accounts[uid]?.email = address
    }
    /// The link (or, with ``sendsCodes``, the code) the last reset email to `email` carried.
    public func lastPasswordReset(for email: String) -> EmailSignInProof? {
        guard let text = security.lastReset[email.lowercased()] else { return nil }
        return sendsCodes ? .code(text) : .link(text)
    }
    public func password(of uid: String) -> String? { accounts[uid]?.password }

    // MARK: Sign-in with a second factor

    /// Issues the tokens of a sign-in, or, when the account has a factor, a pending sign-in.
    func signInIssue(uid: String, provider: String, isNew: Bool) throws(RemoteAuthError) -> SignInResult {
        let factors = security.factors(of: uid)
        guard factors.isEmpty else {
            nextNumber += 1
            let credential = "pending-\(nextNumber)"
            let expiresAt = clock.date.addingTimeInterval(security.pendingLifetime)
            security.pendings[credential] = .init(uid: uid, provider: provider, isNew: isNew, expiresAt: expiresAt)
            throw .secondFactorRequired(
                PendingSecondFactor(
                    uid: uid, email: accounts[uid]?.email, factors: factors, credential: credential,
                    expiresAt: expiresAt))
        }
        return issue(uid: uid, provider: provider, isNew: isNew)
    }

    public func completeSecondFactor(
        _ pending: PendingSecondFactor, factorId: String, code: String
    ) async throws(RemoteAuthError) -> SignInResult {
        try enter("completeSecondFactor")
        guard let record = security.pendings[pending.credential], record.expiresAt > clock.date else {
            throw .rejected(AuthError(.expiredSignInFlow))
        }
        guard let factor = security.factorsByUid[record.uid]?.first(where: { $0.factor.factorId == factorId }),
            accepts(code, secret: factor.secret)
        else { throw .rejected(AuthError(.invalidVerificationCode)) }
        security.pendings[pending.credential] = nil
        return issue(uid: record.uid, provider: record.provider, isNew: record.isNew)
    }

    private func accepts(_ code: String, secret: String) -> Bool {
        let step = Int(clock.date.timeIntervalSince1970 / 30)
        return (step - 1...step + 1).contains { Self.code(secret: secret, step: $0) == code }
    }

    // MARK: Enrolment

    public func startTotpEnrollment(
        _ idToken: IDToken, displayName: String?
    ) async throws(RemoteAuthError) -> TotpEnrollmentStart {
        try enter("startTotpEnrollment")
        let account = try owner(of: idToken)
        nextNumber += 1
        let secret = "FAKETOTPSECRET\(nextNumber)"
        let handle = "enrollment-\(nextNumber)"
        security.enrollments[handle] = (account.uid, secret)
        return TotpEnrollmentStart(
            secret: secret,
            otpauthUri: "otpauth://totp/Fake:\(account.email ?? account.uid)?secret=\(secret)&issuer=Fake",
            expiresAt: clock.date.addingTimeInterval(1800), handle: handle)
    }

    public func finishTotpEnrollment(
        _ idToken: IDToken, _ start: TotpEnrollmentStart, code: String, displayName: String?
    ) async throws(RemoteAuthError) -> TokenGrant? {
        try enter("finishTotpEnrollment")
        let account = try owner(of: idToken)
        guard let enrollment = security.enrollments[start.handle], enrollment.uid == account.uid else {
            throw .rejected(AuthError(.expiredSignInFlow))
        }
        guard accepts(code, secret: enrollment.secret) else { throw .rejected(AuthError(.invalidVerificationCode)) }
        security.enrollments[start.handle] = nil
        addTotpFactor(uid: account.uid, secret: enrollment.secret, displayName: displayName)
        return grant(for: account.uid)
    }

    public func unenrollFactor(_ idToken: IDToken, factorId: String) async throws(RemoteAuthError) -> TokenGrant? {
        try enter("unenrollFactor")
        let account = try owner(of: idToken)
        try checkRecentLogin(account.uid)
        guard security.factorsByUid[account.uid]?.contains(where: { $0.factor.factorId == factorId }) == true else {
            throw .rejected(AuthError(.noSuchProvider, message: "There is no such factor (fake)."))
        }
        security.factorsByUid[account.uid]?.removeAll { $0.factor.factorId == factorId }
        return grant(for: account.uid)
    }

    // MARK: Account security

    public func sendReauthenticationCode(_ idToken: IDToken) async throws(RemoteAuthError) {
        try enter("reauthenticate")
        guard sendsCodes else { throw .unsupported("This fake backend mails no reauthentication codes.") }
        let account = try owner(of: idToken)
        nextNumber += 1
        security.reauthCodes[account.uid] = String(200_000 + nextNumber)
    }

    public func changePassword(
        _ idToken: IDToken, newPassword: String, reauthenticationCode: String?
    ) async throws(RemoteAuthError) -> TokenGrant? {
        try enter("changePassword")
        let account = try owner(of: idToken)
        if let reauthenticationCode, sendsCodes {
            guard security.reauthCodes[account.uid] == reauthenticationCode else {
                throw .rejected(AuthError(.invalidVerificationCode))
            }
            security.reauthCodes[account.uid] = nil
        } else {
            try checkRecentLogin(account.uid)
        }
        guard newPassword.count >= 6 else { throw .rejected(AuthError(.weakPassword)) }
        accounts[account.uid]?.password = newPassword
        if !account.providers.contains("password") { accounts[account.uid]?.providers.append("password") }
        return grant(for: account.uid)
    }

    public func requestEmailChange(_ idToken: IDToken, newEmail: String) async throws(RemoteAuthError) {
        try enter("requestEmailChange")
        let account = try owner(of: idToken)
        try checkRecentLogin(account.uid)
        guard newEmail.contains("@") else { throw .rejected(AuthError(.invalidEmail)) }
        if accounts.values.contains(where: { $0.email == newEmail.lowercased() }) {
            throw .rejected(AuthError(.emailAlreadyInUse))
        }
        security.emailChanges[account.uid] = newEmail.lowercased()
    }

    public func sendPasswordReset(email: String) async throws(RemoteAuthError) {
        try enter("sendPasswordReset")
        guard accounts.values.contains(where: { $0.email == email.lowercased() }) else { return }
        nextNumber += 1
        let text = sendsCodes ? String(300_000 + nextNumber) : "https://fake.invalid/reset?code=\(nextNumber)"
        security.resetProofs[text] = email.lowercased()
        security.lastReset[email.lowercased()] = text
    }

    public func confirmPasswordReset(
        _ proof: EmailSignInProof, email: String?, newPassword: String
    ) async throws(RemoteAuthError) -> String {
        try enter("confirmPasswordReset")
        let text: String
        switch proof {
        case .link(let value), .code(let value): text = value
        }
        guard let addressee = security.resetProofs[text], email == nil || email?.lowercased() == addressee else {
            throw .rejected(AuthError(.invalidActionCode))
        }
        guard newPassword.count >= 6 else { throw .rejected(AuthError(.weakPassword)) }
        security.resetProofs[text] = nil
        if let uid = accounts.values.first(where: { $0.email == addressee })?.uid {
            accounts[uid]?.password = newPassword
        }
        return addressee
    }

    // MARK: Helpers

    func checkRecentLogin(_ uid: String) throws(RemoteAuthError) {
        guard let window = security.recentLoginWindow else { return }
        let signedInAt = security.authTimes[uid] ?? .distantPast
        if clock.date.timeIntervalSince(signedInAt) > window { throw .rejected(AuthError(.requiresRecentLogin)) }
    }

    /// New tokens for `uid`, as a backend issues them after a change (the sign-in time kept).
    private func grant(for uid: String) -> TokenGrant {
        let signedInAt = security.authTimes[uid]
        let result = issue(uid: uid, provider: accounts[uid]?.providers.first ?? "password", isNew: false)
        security.authTimes[uid] = signedInAt
        return TokenGrant(uid: uid, idToken: result.idToken, refreshToken: result.refreshToken)
    }
}
