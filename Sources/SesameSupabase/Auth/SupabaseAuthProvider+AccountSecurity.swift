import Foundation
import NIOHTTP1
import SesameCore
import SesameHTTP

/// Reauthentication, password and email changes, and password reset on GoTrue
/// (docs/providers.md, "Account security").
extension SupabaseAuthProvider {
    /// GoTrue asks for the reauthentication nonce to change the password of a session older than
    /// 24 hours (when the project turns on secure password change).
    public var recentSignInWindow: TimeInterval { 24 * 60 * 60 }

    /// `GET /reauthenticate`: GoTrue mails the account's confirmed address a six-digit nonce.
    public func sendReauthenticationCode(_ idToken: IDToken) async throws(RemoteAuthError) {
        let context = SupabaseCallContext(
            name: "auth.reauthenticate", sentUserToken: true, validationReason: .missingEmail)
        let request = client.request(
            context.name, .GET, url: client.authURL("reauthenticate"), bearer: .user(idToken))
        try await client.send(request, context: context)
    }

    /// `PUT /user {password, nonce?}`. Without a nonce where GoTrue needs one:
    /// `requires-recent-login`; a wrong or expired nonce: `invalid-verification-code`. GoTrue
    /// ends the account's other sessions and issues no tokens (nil).
    public func changePassword(
        _ idToken: IDToken, newPassword: String, reauthenticationCode: String?
    ) async throws(RemoteAuthError) -> TokenGrant? {
        let context = SupabaseCallContext(
            name: "auth.user.password", sentUserToken: true, validationReason: .weakPassword)
        let nonce = reauthenticationCode?.trimmingCharacters(in: .whitespacesAndNewlines)
        let request = client.request(
            context.name, .PUT, url: client.authURL("user"), bearer: .user(idToken),
            body: PasswordChangeBody(password: newPassword, nonce: nonce.flatMap { $0.isEmpty ? nil : $0 }))
        try await client.send(request, context: context)
        return nil
    }

    /// `PUT /user {email}`: GoTrue mails the new address (and, with secure email change, the
    /// current one) and shows it as `new_email` until confirmed.
    public func requestEmailChange(_ idToken: IDToken, newEmail: String) async throws(RemoteAuthError) {
        let context = SupabaseCallContext(
            name: "auth.user.email", sentUserToken: true, validationReason: .invalidEmail, email: newEmail)
        let request = client.request(
            context.name, .PUT, url: client.authURL("user"), bearer: .user(idToken), body: EmailBody(email: newEmail))
        try await client.send(request, context: context)
    }

    /// GoTrue's recovery: `POST /verify {type: "recovery"}` with the link's token hash (or the
    /// mailed code and the address) signs in; `PUT /user {password}` in that session; then
    /// `POST /logout` ends it, so no session outlives the call. Returns the account's email.
    /// A password shorter than GoTrue's floor of 6 is refused before the code is spent.
    public func confirmPasswordReset(
        _ proof: EmailSignInProof, email: String?, newPassword: String
    ) async throws(RemoteAuthError) -> String {
        if newPassword.count < 6 { throw .rejected(AuthError(.weakPassword)) }
        let body: VerifyBody
        switch try Self.emailProof(proof) {
        case .tokenHash(let hash, _):
            body = VerifyBody(type: "recovery", tokenHash: hash)
        case .code(let code):
            guard let email, !email.isEmpty else { throw .rejected(AuthError(.missingEmail)) }
            body = VerifyBody(type: "recovery", email: email, token: code)
        }
        let context = SupabaseCallContext(
            name: "auth.verify.recovery", fallback: .invalidActionCode, validationReason: .invalidActionCode,
            email: email)
        let request = client.request(context.name, .POST, url: client.authURL("verify"), bearer: .nobody, body: body)
        let answer = try await client.send(request, context: context, as: GoTrueSession.self)
        // An account with a verified factor: GoTrue changes its password only in an `aal2`
        // session, so the recovery session (`aal1`) waits, in the daemon's memory, for the
        // second factor (`completeSecondFactor` sets the password and ends it).
        let session = try signedIn(answer, name: context.name, isNewUser: false)
        do throws(RemoteAuthError) {
            _ = try await changePassword(session.idToken, newPassword: newPassword, reauthenticationCode: nil)
        } catch {
            try? await revokeSession(session.idToken)
            throw error
        }
        try? await revokeSession(session.idToken)
        return answer.user?.email.flatMap { $0.isEmpty ? nil : $0 } ?? email ?? ""
    }
}
