import Foundation
import NIOHTTP1
import SesameCore
import SesameHTTP

/// Second factors on GoTrue: TOTP factors (`/factors`), challenged and verified to raise a
/// session from `aal1` to `aal2` (docs/providers.md, "Second factors").
extension SupabaseAuthProvider {
    /// Finishes a sign-in held at `aal1`: a new challenge of `factorId` and its verification
    /// with the pending session's token; the answer is the `aal2` session (the `aal1` refresh
    /// token is dead from then on). A wrong code leaves the pending session usable; a pending
    /// token GoTrue no longer takes (expired, or its session ended) is `expired-sign-in-flow`.
    public func completeSecondFactor(
        _ pending: PendingSecondFactor, factorId: String, code: String
    ) async throws(RemoteAuthError) -> SignInResult {
        let answer: GoTrueSession
        do {
            answer = try await challengeAndVerify(pendingToken(pending), factorId: factorId, code: code)
        } catch .idTokenRejected, .accountGone {
            throw .rejected(AuthError(.expiredSignInFlow))
        }
        return try signInResult(answer, name: "auth.factors.verify", isNewUser: false)
    }

    /// `POST /factors {factor_type: "totp", friendly_name}`: GoTrue answers the secret and the
    /// `otpauth://` URI of an unverified factor (its id is the handle). GoTrue refuses a second
    /// factor with the same name, unverified ones included, so an unfinished enrolment of the
    /// same name is removed first (`DELETE /factors/{id}`), and a verified one is refused here.
    public func startTotpEnrollment(
        _ idToken: IDToken, displayName: String?
    ) async throws(RemoteAuthError) -> TotpEnrollmentStart {
        let name = displayName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        for factor in try await currentUser(idToken).factors ?? [] where (factor.friendlyName ?? "") == name {
            guard !factor.isVerified else {
                throw .rejected(
                    AuthError(
                        .operationNotAllowed,
                        message: "An authenticator with that name is already enrolled: choose another name."))
            }
            _ = try await unenrollFactor(idToken, factorId: factor.id)
        }
        let context = SupabaseCallContext(name: "auth.factors.enroll", sentUserToken: true)
        let request = client.request(
            context.name, .POST, url: client.authURL("factors"), bearer: .user(idToken),
            body: EnrollTOTPBody(friendlyName: name.isEmpty ? nil : name))
        let factor = try await client.send(request, context: context, as: EnrolledFactor.self)
        guard let totp = factor.totp, !totp.secret.isEmpty, !totp.uri.isEmpty else {
            throw .malformedResponse("\(context.name): no totp secret or uri")
        }
        return TotpEnrollmentStart(secret: totp.secret, otpauthUri: totp.uri, expiresAt: nil, handle: factor.id)
    }

    /// Challenges and verifies the new factor with `code`: it becomes verified and GoTrue
    /// answers the session raised to `aal2`, returned as the new tokens. An enrolment GoTrue no
    /// longer has is `expired-sign-in-flow`.
    public func finishTotpEnrollment(
        _ idToken: IDToken, _ start: TotpEnrollmentStart, code: String, displayName: String?
    ) async throws(RemoteAuthError) -> TokenGrant? {
        let answer: GoTrueSession
        do {
            answer = try await challengeAndVerify(idToken, factorId: start.handle, code: code)
        } catch .rejected(let error) where error.reason == .noSuchProvider {
            throw .rejected(
                AuthError(.expiredSignInFlow, message: "That enrolment is no longer pending: start it again."))
        }
        let result = try signInResult(answer, name: "auth.factors.verify", isNewUser: false)
        return TokenGrant(uid: result.uid, idToken: result.idToken, refreshToken: result.refreshToken)
    }

    /// `DELETE /factors/{id}`. A verified factor needs an `aal2` session (else
    /// `requires-recent-login`); GoTrue issues no tokens (nil) and lowers the sessions the
    /// factor raised to `aal1`, which the next refresh shows.
    public func unenrollFactor(_ idToken: IDToken, factorId: String) async throws(RemoteAuthError) -> TokenGrant? {
        let context = SupabaseCallContext(name: "auth.factors.unenroll", sentUserToken: true)
        let request = client.request(
            context.name, .DELETE, url: client.authURL("factors/" + PercentEncoding.pathSegment(factorId)),
            bearer: .user(idToken))
        try await client.send(request, context: context)
        return nil
    }
}
