import SesameLocalAPI

/// The methods of PROTOCOL.md's "Second factors" and "Account security": finishing a sign-in
/// with a second factor, enrolling TOTP, proving a recent sign-in, and changing the password
/// or the email.
extension SesameClient {
    /// Finishes a sign-in that failed with `second-factor-required`, with a code from the
    /// person's authenticator app. The result is the one the first call would have had.
    /// - Parameters:
    ///   - challengeId: ``SesameClientError/DaemonError/challenge``'s id (or
    ///     ``SesameState/secondFactor``'s).
    ///   - factorId: which factor the code is from, when the account has several.
    /// - Throws: `invalid-verification-code` (the challenge stays open: ask again),
    ///   `expired-sign-in-flow` (sign in again).
    public func completeSecondFactor(
        challengeId: String, code: String, factorId: String? = nil
    ) async throws -> (state: SesameState, merge: SesameMerge?) {
        var params: [String: JSONValue] = ["challengeId": .string(challengeId), "code": .string(code)]
        if let factorId { params["factorId"] = .string(factorId) }
        return try SesameState.decodeWithMerge(try await call(.completeSecondFactor, params))
    }

    /// Starts enrolling a TOTP factor: show the result's `otpauthUri` as a QR code, then call
    /// ``confirmTotp(enrollmentId:code:)`` with a code from the app.
    /// - Throws: `requires-account`, `requires-recent-login`, `operation-not-allowed` (Firebase
    ///   wants a verified email first).
    public func enrollTotp(displayName: String? = nil) async throws -> SesameTotpEnrollment {
        var params: [String: JSONValue] = [:]
        if let displayName { params["displayName"] = .string(displayName) }
        guard let enrollment = SesameTotpEnrollment(json: try await call(.enrollTotp, params)) else {
            throw SesameClientError.protocolError("an enrollTotp result without enrollmentId, secret or otpauthUri")
        }
        return enrollment
    }

    /// Activates the factor of ``enrollTotp(displayName:)`` with a current code; the state's
    /// user lists it in `factors`.
    /// - Throws: `invalid-verification-code`, `expired-sign-in-flow` (enrol again).
    public func confirmTotp(enrollmentId: String, code: String) async throws -> SesameState {
        try SesameState.decode(
            try await call(.confirmTotp, ["enrollmentId": .string(enrollmentId), "code": .string(code)]))
    }

    /// Removes an enrolled factor.
    /// - Throws: `requires-recent-login` (``reauthenticate(password:)`` first).
    public func unenrollFactor(factorId: String) async throws -> SesameState {
        try SesameState.decode(try await call(.unenrollFactor, ["factorId": .string(factorId)]))
    }

    /// Proves a recent sign-in with the account's password (the uid does not change).
    /// - Throws: `invalid-login-credentials`; `second-factor-required` for an account with a
    ///   second factor (``completeSecondFactor(challengeId:code:factorId:)`` finishes it).
    public func reauthenticate(password: String) async throws -> SesameReauthentication {
        SesameReauthentication(json: try await call(.reauthenticate, ["password": .string(password)]))
    }

    /// Proves a recent sign-in with the one-time code of ``sendReauthenticationCode()``: the
    /// daemon holds it for the next ``changePassword(newPassword:)``.
    /// - Throws: `invalid-verification-code`, `operation-not-allowed` (a backend that mails no codes).
    public func reauthenticate(code: String) async throws -> SesameReauthentication {
        SesameReauthentication(json: try await call(.reauthenticate, ["code": .string(code)]))
    }

    /// Asks the backend to mail a reauthentication code to the account's address (Supabase);
    /// the result has `codeSent`.
    /// - Throws: `operation-not-allowed` on a backend that mails no codes (Firebase: use the
    ///   password, or an interactive sign-in flow with purpose `reauthenticate`).
    public func sendReauthenticationCode() async throws -> SesameReauthentication {
        SesameReauthentication(json: try await call(.reauthenticate))
    }

    /// Changes the signed-in account's password.
    /// - Throws: `weak-password`, `requires-recent-login`, `requires-account`.
    public func changePassword(newPassword: String) async throws {
        _ = try await call(.changePassword, ["newPassword": .string(newPassword)])
    }

    /// Asks to change the account's address: the backend mails `newEmail`, and the change shows
    /// in `User.email` once its owner confirms. Returns the pending address.
    /// - Throws: `email-already-in-use`, `invalid-email`, `requires-recent-login`.
    public func changeEmail(newEmail: String) async throws -> String {
        let result = try await call(.changeEmail, ["newEmail": .string(newEmail)])
        return result["pendingEmail"]?.stringValue ?? newEmail
    }

    /// Completes a password reset from the link of its email; returns the account's address.
    /// Needs no session (observers may call it).
    /// - Throws: `invalid-action-code`, `expired-action-code`, `weak-password`.
    public func confirmPasswordReset(link: String, newPassword: String) async throws -> String {
        let result = try await call(
            .confirmPasswordReset, ["link": .string(link), "newPassword": .string(newPassword)])
        return result["email"]?.stringValue ?? ""
    }

    /// Completes a password reset from the one-time code of its email (where the backend mails
    /// codes); returns the account's address.
    public func confirmPasswordReset(code: String, email: String, newPassword: String) async throws -> String {
        let result = try await call(
            .confirmPasswordReset,
            ["code": .string(code), "email": .string(email), "newPassword": .string(newPassword)])
        return result["email"]?.stringValue ?? email
    }
}
