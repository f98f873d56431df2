import SesameLocalAPI

/// The methods that are more than their params: each shapes its arguments (a name the daemon
/// is told, a `Duration`, one public method per proof) and sends its request through the
/// generated `send…` of SesameClient+Requests.swift.
extension SesameClient {
    /// Who the daemon is and which role it gives this process. Anyone may call it.
    public func hello() async throws -> SesameHello {
        try await sendHello(client: engine.clientName)
    }

    /// The current state (observer).
    public func state() async throws -> SesameState {
        try await sendGetState()
    }

    /// An ID token for your backend (reader).
    /// - Parameters:
    ///   - forceRefresh: get a new token even when the held one is still valid.
    ///   - minValidity: seconds the token must stay valid (the daemon's default is 300).
    ///   - uid: the `fromUid` of a pending merge, to read that guest's data (manager).
    public func idToken(
        forceRefresh: Bool = false, minValidity: Int? = nil, uid: String? = nil
    ) async throws
        -> SesameIDToken
    {
        try await sendGetIdToken(forceRefresh: forceRefresh, minValidity: minValidity.map { Int64($0) }, uid: uid)
    }

    /// Completes a sign-in link. `email` is needed only when the link was not requested through
    /// this daemon.
    /// - Throws: `missing-email`, `invalid-action-code`, `expired-action-code`, …
    public func completeSignInLink(
        link: String, email: String? = nil
    ) async throws
        -> (state: SesameState, merge: SesameMerge?)
    {
        try await sendCompleteSignInLink(link: link, email: email)
    }

    /// Completes a passwordless sign-in with the one-time code of a sign-in email, where the
    /// backend mails codes (Supabase).
    /// - Throws: `operation-not-allowed` on a backend without codes (Firebase),
    ///   `invalid-action-code`, `expired-action-code`, …
    public func completeSignInLink(
        email: String, code: String
    ) async throws
        -> (state: SesameState, merge: SesameMerge?)
    {
        try await sendCompleteSignInLink(code: code, email: email)
    }

    /// Waits until the flow ends and returns its outcome. The call waits at least `timeout`
    /// beyond the client's ``requestTimeout``, so that limit never cuts the wait short.
    /// - Parameter timeout: how long the daemon waits (its default is 300 s); whole seconds,
    ///   rounded up.
    /// - Throws: `operation-in-progress` at `timeout` (the flow goes on: wait again),
    ///   `access-denied`, `expired-sign-in-flow`, `sign-in-cancelled`, or the sign-in's error.
    public func awaitSignIn(
        flowId: String, timeout: Duration? = nil
    ) async throws -> (state: SesameState, merge: SesameMerge?) {
        guard let timeout else {
            return try await sendAwaitSignIn(flowId: flowId, waitingAtLeast: Self.defaultAwaitTimeout)
        }
        let seconds = max(0, Self.wholeSecondsRoundedUp(timeout))
        return try await sendAwaitSignIn(flowId: flowId, timeout: seconds, waitingAtLeast: .seconds(seconds))
    }

    /// The daemon's wait for a flow's end when the call gives none.
    static let defaultAwaitTimeout: Duration = .seconds(300)

    static func wholeSecondsRoundedUp(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return attoseconds > 0 ? seconds + 1 : seconds
    }

    /// Proves a recent sign-in with the account's password (the uid does not change).
    /// - Throws: `invalid-login-credentials`; `second-factor-required` for an account with a
    ///   second factor (``completeSecondFactor(challengeId:code:factorId:)`` finishes it).
    public func reauthenticate(password: String) async throws -> SesameReauthentication {
        try await sendReauthenticate(password: password)
    }

    /// Proves a recent sign-in with the one-time code of ``sendReauthenticationCode()``: the
    /// daemon holds it for the next ``changePassword(newPassword:)``.
    /// - Throws: `invalid-verification-code`, `operation-not-allowed` (a backend that mails no codes).
    public func reauthenticate(code: String) async throws -> SesameReauthentication {
        try await sendReauthenticate(code: code)
    }

    /// Asks the backend to mail a reauthentication code to the account's address (Supabase);
    /// the result has `codeSent`.
    /// - Throws: `operation-not-allowed` on a backend that mails no codes (Firebase: use the
    ///   password, or an interactive sign-in flow with purpose `reauthenticate`).
    public func sendReauthenticationCode() async throws -> SesameReauthentication {
        try await sendReauthenticate()
    }

    /// Completes a password reset from the link of its email; returns the account's address.
    /// Needs no session (observers may call it).
    /// - Throws: `invalid-action-code`, `expired-action-code`, `weak-password`.
    public func confirmPasswordReset(link: String, newPassword: String) async throws -> String {
        try await sendConfirmPasswordReset(link: link, newPassword: newPassword)
    }

    /// Completes a password reset from the one-time code of its email (where the backend mails
    /// codes); returns the account's address.
    public func confirmPasswordReset(code: String, email: String, newPassword: String) async throws -> String {
        try await sendConfirmPasswordReset(code: code, email: email, newPassword: newPassword)
    }
}
