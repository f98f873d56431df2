import Foundation
import Logging
import SesameCore
import SesameLocalAPI

/// Identity Platform's TOTP second factors (docs/emulator.md, "Second factors and account
/// security"): enrolment (`v2/accounts/mfaEnrollment:start`, `:finalize`, `:withdraw`) and the
/// second step of a sign-in (`v2/accounts/mfaSignIn:finalize`). Codes are checked with
/// ``TOTP`` (±1 step); a code of the wrong length or with other characters than digits is
/// refused like a wrong one.
extension AccountStore {
    /// How long a started enrolment and a pending sign-in are accepted (milliseconds).
    static let enrollmentLifetime = 600_000
    static let pendingSignInLifetime = 300_000
    /// Wrong codes one pending sign-in takes before `mfaSignIn:finalize` answers
    /// `TOO_MANY_ATTEMPTS_TRY_LATER` and voids it. Identity Platform documents no number and no
    /// answer for this: its documented answer to too many attempts is that code (docs/emulator.md).
    static let wrongCodesPerPendingSignIn = 10
    /// First factors that cannot carry a second one (as Google's emulator).
    static let secondFactorIneligibleProviders: Set<String> = ["anonymous", "phone", "custom"]

    var now: Date { Date(timeIntervalSince1970: Double(nowMilliseconds) / 1000) }

    /// `mfaEnrollment:start {idToken, totpEnrollmentInfo: {}}` → `totpSessionInfo`.
    func mfaEnrollmentStart(_ body: StartMfaEnrollmentRequest) throws(IdentityToolkitError) -> JSONValue {
        if body.phoneEnrollmentInfo != nil { throw .invalid(AuthEndpoints.multiFactorOff) }
        guard let idToken = body.idToken.nonEmpty else { throw .invalid("MISSING_ID_TOKEN") }
        let verified = try verifyIdToken(idToken)
        try checkSecondFactorEligible(verified.signInProvider)
        if verified.user.emailVerified != true {
            throw .invalid("UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
        }
        guard body.totpEnrollmentInfo != nil else {
            throw .invalid("INVALID_ARGUMENT : ((Missing totpEnrollmentInfo.))")
        }
        let secret = TOTP.random().base32
        let sessionInfo = RandomIdentifier.oobCode()
        let expiresAt = nowMilliseconds + Self.enrollmentLifetime
        secondFactorSessions.enrollments[sessionInfo] = PendingTotpEnrollment(
            localId: verified.user.localId, secret: secret, expiresAt: expiresAt)
        logger.debug("auth.mfa.enrollment.started")
        return [
            "totpSessionInfo": [
                "sharedSecretKey": .string(secret), "verificationCodeLength": .int(TOTP.digits),
                "hashingAlgorithm": "SHA1", "periodSec": .int(Int(TOTP.period)),
                "sessionInfo": .string(sessionInfo),
                "finalizeEnrollmentTime": .string(RFC3339.format(milliseconds: expiresAt)),
            ]
        ]
    }

    /// `mfaEnrollment:finalize {idToken, displayName, totpVerificationInfo {sessionInfo,
    /// verificationCode}}` → `{idToken, refreshToken}` (no `expiresIn`, as Identity Platform).
    func mfaEnrollmentFinalize(_ body: FinalizeMfaEnrollmentRequest) throws(IdentityToolkitError) -> JSONValue {
        if body.phoneVerificationInfo != nil { throw .invalid(AuthEndpoints.multiFactorOff) }
        guard let idToken = body.idToken.nonEmpty else { throw .invalid("MISSING_ID_TOKEN") }
        guard let info = body.totpVerificationInfo else {
            throw .invalid("INVALID_ARGUMENT : ((Missing totpVerificationInfo.))")
        }
        guard let sessionInfo = info["sessionInfo"]?.stringValue, !sessionInfo.isEmpty else {
            throw .invalid("MISSING_SESSION_INFO")
        }
        guard let pending = secondFactorSessions.enrollments[sessionInfo] else {
            throw .invalid("INVALID_SESSION_INFO")
        }
        let verified = try verifyIdToken(idToken)
        try checkSecondFactorEligible(verified.signInProvider)
        guard pending.localId == verified.user.localId else { throw .invalid("INVALID_SESSION_INFO") }
        if pending.expiresAt < nowMilliseconds {
            secondFactorSessions.enrollments[sessionInfo] = nil
            throw .invalid("SESSION_EXPIRED")
        }
        guard let code = info["verificationCode"]?.stringValue, !code.isEmpty else { throw .invalid("MISSING_CODE") }
        guard TOTP(base32: pending.secret)?.verify(code, at: now) == true else { throw .invalid("INVALID_CODE") }
        secondFactorSessions.enrollments[sessionInfo] = nil
        var user = verified.user
        let taken = Set(user.mfaInfo.map(\.mfaEnrollmentId))
        var id = RandomIdentifier.uid()
        while taken.contains(id) { id = RandomIdentifier.uid() }
        let enrollment = MfaEnrollmentRecord(
            mfaEnrollmentId: id, displayName: body.displayName.nonEmpty, enrolledAt: nowMilliseconds,
            secret: pending.secret)
        user.mfaInfo.append(enrollment)
        logger.debug("auth.mfa.enrollment.finalized")
        let issued = issueTokens(
            for: &user, signInProvider: verified.signInProvider,
            secondFactor: SecondFactorClaim(identifier: id, provider: "totp"))
        return ["idToken": .string(issued.idToken), "refreshToken": .string(issued.refreshToken)]
    }

    /// `mfaEnrollment:withdraw {idToken, mfaEnrollmentId}` → `{idToken, refreshToken}`.
    func mfaEnrollmentWithdraw(_ body: WithdrawMfaRequest) throws(IdentityToolkitError) -> JSONValue {
        guard let idToken = body.idToken.nonEmpty else { throw .invalid("MISSING_ID_TOKEN") }
        let verified = try verifyIdToken(idToken)
        try checkRecentLogin(verified.payload)
        var user = verified.user
        let before = user.mfaInfo.count
        user.mfaInfo.removeAll { $0.mfaEnrollmentId == body.mfaEnrollmentId }
        guard user.mfaInfo.count < before else { throw .invalid("MFA_ENROLLMENT_NOT_FOUND") }
        let issued = issueTokens(for: &user, signInProvider: verified.signInProvider)
        return ["idToken": .string(issued.idToken), "refreshToken": .string(issued.refreshToken)]
    }

    /// `mfaSignIn:finalize {mfaPendingCredential, mfaEnrollmentId, totpVerificationInfo
    /// {verificationCode}}` → `{idToken, refreshToken}`. A wrong code leaves the pending
    /// credential usable; success spends it.
    func mfaSignInFinalize(_ body: FinalizeMfaSignInRequest) throws(IdentityToolkitError) -> JSONValue {
        guard let credential = body.mfaPendingCredential.nonEmpty else {
            throw .invalid("MISSING_CREDENTIAL : Please set MFA Pending Credential.")
        }
        guard let info = body.totpVerificationInfo else {
            throw .invalid("INVALID_ARGUMENT : MFA provider not supported!")
        }
        guard let pending = secondFactorSessions.signIns[credential], pending.expiresAt >= nowMilliseconds,
            var user = users[pending.localId]
        else {
            secondFactorSessions.signIns[credential] = nil
            throw .invalid("INVALID_MFA_PENDING_CREDENTIAL")
        }
        guard let enrollmentId = body.mfaEnrollmentId.nonEmpty else {
            throw .invalid("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
        }
        guard let enrollment = user.mfaInfo.first(where: { $0.mfaEnrollmentId == enrollmentId }) else {
            throw .invalid("MFA_ENROLLMENT_NOT_FOUND")
        }
        guard let code = info["verificationCode"]?.stringValue, !code.isEmpty else { throw .invalid("MISSING_CODE") }
        guard TOTP(base32: enrollment.secret)?.verify(code, at: now) == true else {
            secondFactorSessions.signIns[credential]?.wrongCodes += 1
            if pending.wrongCodes + 1 >= Self.wrongCodesPerPendingSignIn {
                secondFactorSessions.signIns[credential] = nil
                throw .invalid("TOO_MANY_ATTEMPTS_TRY_LATER")
            }
            throw .invalid("INVALID_CODE")
        }
        if user.disabled { throw .invalid("USER_DISABLED") }
        secondFactorSessions.signIns[credential] = nil
        user.lastLoginAt = nowMilliseconds
        let issued = issueTokens(
            for: &user, signInProvider: pending.signInProvider, extraClaims: pending.extraClaims,
            secondFactor: SecondFactorClaim(identifier: enrollmentId, provider: "totp"))
        return ["idToken": .string(issued.idToken), "refreshToken": .string(issued.refreshToken)]
    }

    /// For an account with a second factor: a new pending credential and the `mfaInfo` a
    /// sign-in answers instead of tokens; nil when the account has none (or the first factor
    /// cannot carry one).
    func secondFactorPending(
        for user: UserRecord, signInProvider: String, extraClaims: [String: JSONValue] = [:]
    ) -> (credential: String, mfaInfo: [JSONValue])? {
        guard !user.mfaInfo.isEmpty, !Self.secondFactorIneligibleProviders.contains(signInProvider) else {
            return nil
        }
        let credential = RandomIdentifier.oobCode()
        secondFactorSessions.signIns[credential] = PendingSecondFactorSignIn(
            localId: user.localId, signInProvider: signInProvider, extraClaims: extraClaims,
            expiresAt: nowMilliseconds + Self.pendingSignInLifetime)
        return (credential, user.mfaInfo.map { $0.json(revealingSecret: false) })
    }

    /// `CREDENTIAL_TOO_OLD_LOGIN_AGAIN` when `recentLoginSeconds` is set and the ID token's
    /// `auth_time` is older than that (production: 5 minutes).
    func checkRecentLogin(_ payload: [String: JSONValue]) throws(IdentityToolkitError) {
        guard tokenSettings.recentLoginSeconds > 0 else { return }
        let authTime = payload["auth_time"]?.intValue ?? 0
        if nowSeconds - authTime > tokenSettings.recentLoginSeconds { throw .invalid("CREDENTIAL_TOO_OLD_LOGIN_AGAIN") }
    }

    private func checkSecondFactorEligible(_ signInProvider: String) throws(IdentityToolkitError) {
        if Self.secondFactorIneligibleProviders.contains(signInProvider) {
            throw .invalid("UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
        }
    }
}
