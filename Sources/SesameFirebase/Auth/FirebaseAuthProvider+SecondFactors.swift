import Foundation
import SesameCore
import SesameHTTP

/// Identity Platform's TOTP second factors (v2 `accounts/mfaEnrollment:*`,
/// `accounts/mfaSignIn:finalize`) and account security (docs/providers.md, "Firebase").
extension FirebaseAuthProvider {
    /// Identity Platform refuses sensitive calls (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`) when the
    /// sign-in (`auth_time`) is older than 5 minutes.
    public var recentSignInWindow: TimeInterval { 300 }

    /// `mfaSignIn:finalize {mfaPendingCredential, mfaEnrollmentId, totpVerificationInfo
    /// {verificationCode}}`. A wrong code is `INVALID_CODE` (`invalid-verification-code`, the
    /// pending credential stays usable); a credential no longer taken is
    /// `INVALID_MFA_PENDING_CREDENTIAL` (`expired-sign-in-flow`). An account with a second
    /// factor is never new.
    public func completeSecondFactor(
        _ pending: PendingSecondFactor, factorId: String, code: String
    ) async throws(RemoteAuthError) -> SignInResult {
        let context = FirebaseCallContext(.mfaSignInFinalize, sentIDToken: false, fallback: .invalidVerificationCode)
        let request = FinalizeTotpSignInRequest(
            mfaPendingCredential: pending.credential, mfaEnrollmentId: factorId,
            totpVerificationInfo: .init(verificationCode: code))
        let answer = try await client.post(request, context: context, as: SecondFactorTokensResponse.self)
        let grant = try tokenGrant(answer, endpoint: .mfaSignInFinalize, uid: pending.uid)
        return SignInResult(uid: grant.uid, idToken: grant.idToken, refreshToken: grant.refreshToken, isNewUser: false)
    }

    /// `mfaEnrollment:start {idToken, totpEnrollmentInfo: {}}` → `totpSessionInfo`. An account
    /// without a verified email is refused (`UNVERIFIED_EMAIL` → `operation-not-allowed`).
    /// The `otpauth://` URI is built here, as Firebase's SDKs build it: issuer the project id,
    /// account the token's email (else the uid).
    public func startTotpEnrollment(
        _ idToken: IDToken, displayName: String?
    ) async throws(RemoteAuthError) -> TotpEnrollmentStart {
        let context = FirebaseCallContext(.mfaEnrollmentStart, sentIDToken: true)
        let answer = try await client.post(
            StartTotpEnrollmentRequest(idToken: idToken.rawValue), context: context,
            as: StartTotpEnrollmentResponse.self)
        let info = answer.totpSessionInfo
        guard !info.sharedSecretKey.isEmpty, !info.sessionInfo.isEmpty else {
            throw .malformedResponse("\(FirebaseEndpoint.mfaEnrollmentStart.name): no sharedSecretKey or sessionInfo")
        }
        let account = JWTClaims.email(of: idToken.rawValue) ?? JWTClaims.userId(of: idToken.rawValue) ?? "account"
        let issuer = PercentEncoding.queryValue(configuration.projectId)
        let uri =
            "otpauth://totp/\(issuer):\(PercentEncoding.queryValue(account))"
            + "?secret=\(info.sharedSecretKey)&issuer=\(issuer)"
            + "&algorithm=\(info.hashingAlgorithm ?? "SHA1")&digits=\(info.verificationCodeLength ?? 6)"
            + "&period=\(info.periodSec ?? 30)"
        return TotpEnrollmentStart(
            secret: info.sharedSecretKey, otpauthUri: uri,
            expiresAt: info.finalizeEnrollmentTime.flatMap(RFC3339.parse), handle: info.sessionInfo)
    }

    /// `mfaEnrollment:finalize {idToken, displayName, totpVerificationInfo {sessionInfo,
    /// verificationCode}}` → the new tokens.
    public func finishTotpEnrollment(
        _ idToken: IDToken, _ start: TotpEnrollmentStart, code: String, displayName: String?
    ) async throws(RemoteAuthError) -> TokenGrant? {
        let context = FirebaseCallContext(.mfaEnrollmentFinalize, sentIDToken: true)
        let request = FinalizeTotpEnrollmentRequest(
            idToken: idToken.rawValue, displayName: displayName.flatMap { $0.isEmpty ? nil : $0 },
            totpVerificationInfo: .init(sessionInfo: start.handle, verificationCode: code))
        let answer = try await client.post(request, context: context, as: SecondFactorTokensResponse.self)
        return try tokenGrant(answer, endpoint: .mfaEnrollmentFinalize, uid: nil)
    }

    /// `mfaEnrollment:withdraw {idToken, mfaEnrollmentId}` → the new tokens.
    public func unenrollFactor(_ idToken: IDToken, factorId: String) async throws(RemoteAuthError) -> TokenGrant? {
        let context = FirebaseCallContext(.mfaEnrollmentWithdraw, sentIDToken: true)
        let answer = try await client.post(
            WithdrawSecondFactorRequest(idToken: idToken.rawValue, mfaEnrollmentId: factorId), context: context,
            as: SecondFactorTokensResponse.self)
        return try tokenGrant(answer, endpoint: .mfaEnrollmentWithdraw, uid: nil)
    }

    /// Firebase mails no reauthentication codes: reauthenticate with the password, or sign in
    /// again with the account's provider.
    public func sendReauthenticationCode(_ idToken: IDToken) async throws(RemoteAuthError) {
        throw .unsupported(
            "Firebase sends no reauthentication codes: reauthenticate with the password, or sign in again with the account's provider."
        )
    }

    /// `accounts:update {idToken, password, returnSecureToken}`. Identity Platform revokes the
    /// account's refresh tokens (`validSince`) and answers with new ones, which are returned.
    /// Firebase takes no reauthentication code.
    public func changePassword(
        _ idToken: IDToken, newPassword: String, reauthenticationCode: String?
    ) async throws(RemoteAuthError) -> TokenGrant? {
        let context = FirebaseCallContext(.update, sentIDToken: true)
        var request = UpdateAccountRequest(idToken: idToken.rawValue)
        request.password = newPassword
        let answer = try await client.post(request, context: context, as: UpdateAccountResponse.self)
        guard let localId = answer.localId, let newIDToken = answer.idToken, let refreshToken = answer.refreshToken
        else { return nil }
        let lifetime = answer.expiresIn?.value ?? JWTClaims.lifetime(of: newIDToken).map { String($0) } ?? "3600"
        return TokenGrant(
            uid: localId, idToken: try tokens.make(rawValue: newIDToken, expiresIn: lifetime, endpoint: .update),
            refreshToken: RefreshToken(refreshToken))
    }

    /// `accounts:sendOobCode {requestType: VERIFY_AND_CHANGE_EMAIL, idToken, newEmail}`: the new
    /// address gets a link; the email changes when it is applied. A taken address is
    /// `email-already-in-use` (with the address).
    public func requestEmailChange(_ idToken: IDToken, newEmail: String) async throws(RemoteAuthError) {
        let context = FirebaseCallContext(.sendOobCode, sentIDToken: true, fallback: .invalidEmail, email: newEmail)
        var request = SendOobCodeRequest(requestType: .verifyAndChangeEmail, idToken: idToken.rawValue)
        request.newEmail = newEmail
        _ = try await client.post(request, context: context, as: EmptyResponse.self)
    }

    /// `accounts:resetPassword {oobCode, newPassword}` from a password-reset link (or its bare
    /// `oobCode`). Returns the account's email (the answer's, else `email`).
    public func confirmPasswordReset(
        _ proof: EmailSignInProof, email: String?, newPassword: String
    ) async throws(RemoteAuthError) -> String {
        let oobCode: String
        switch proof {
        case .link(let text):
            guard let link = EmailActionLink(text), link.mode == "resetPassword" else {
                throw .rejected(
                    AuthError(
                        .invalidActionCode,
                        message: "That is not a password-reset link: paste the whole link from the email."))
            }
            oobCode = link.oobCode
        case .code(let code):
            let trimmed = code.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw .rejected(AuthError(.invalidActionCode)) }
            oobCode = trimmed
        }
        let context = FirebaseCallContext(
            .resetPassword, sentIDToken: false, fallback: .invalidActionCode, email: email)
        let answer = try await client.post(
            ResetPasswordRequest(oobCode: oobCode, newPassword: newPassword), context: context,
            as: ResetPasswordResponse.self)
        guard let address = answer.email.flatMap({ $0.isEmpty ? nil : $0 }) ?? email else {
            throw .malformedResponse("\(FirebaseEndpoint.resetPassword.name): no email")
        }
        return address
    }

    /// The tokens of a v2 answer (`{idToken, refreshToken}`, no `expiresIn`: the lifetime is
    /// the token's `exp - iat`, else an hour). The uid is the token's, else `uid`.
    func tokenGrant(
        _ answer: SecondFactorTokensResponse, endpoint: FirebaseEndpoint, uid: String?
    ) throws(RemoteAuthError) -> TokenGrant {
        guard let idToken = answer.idToken, !idToken.isEmpty, let refreshToken = answer.refreshToken,
            !refreshToken.isEmpty, let owner = JWTClaims.userId(of: idToken) ?? uid
        else {
            throw .malformedResponse("\(endpoint.name): missing idToken, refreshToken or uid")
        }
        let lifetime = JWTClaims.lifetime(of: idToken) ?? 3600
        return TokenGrant(
            uid: owner, idToken: try tokens.make(rawValue: idToken, expiresIn: String(lifetime), endpoint: endpoint),
            refreshToken: RefreshToken(refreshToken))
    }
}
