import Foundation
import NIOHTTP1
import SesameCore
import SesameHTTP

/// Authenticator assurance: a session at `aal1` of a user with a verified factor is never a
/// sign-in result; the second factor raises it to `aal2` (challenge + verify).
extension SupabaseAuthProvider {
    /// The result of a sign-in's session answer. An `aal1` session of a user with a verified
    /// factor is not returned: it becomes ``RemoteAuthError/secondFactorRequired(_:)`` holding
    /// the session's tokens as the pending credential (no token leaves the daemon).
    func signedIn(_ answer: GoTrueSession, name: String, isNewUser: Bool) throws(RemoteAuthError) -> SignInResult {
        let result = try signInResult(answer, name: name, isNewUser: isNewUser)
        let factors = answer.user?.verifiedFactors ?? []
        guard !factors.isEmpty, SupabaseClaims.assuranceLevel(of: result.idToken.rawValue) != "aal2" else {
            return result
        }
        throw .secondFactorRequired(
            PendingSecondFactor(
                uid: result.uid, email: answer.user?.email.flatMap { $0.isEmpty ? nil : $0 }, factors: factors,
                credential: result.idToken.rawValue, secondaryCredential: result.refreshToken.rawValue,
                expiresAt: result.idToken.expiresAt))
    }

    /// A new challenge of `factorId`, then its verification with `code`: the session raised to
    /// `aal2`. A new challenge each time, so a slow person never meets an expired one.
    func challengeAndVerify(
        _ idToken: IDToken, factorId: String, code: String
    ) async throws(RemoteAuthError) -> GoTrueSession {
        let path = "factors/" + PercentEncoding.pathSegment(factorId)
        let challengeContext = SupabaseCallContext(
            name: "auth.factors.challenge", sentUserToken: true, fallback: .invalidVerificationCode)
        let challengeRequest = client.request(
            challengeContext.name, .POST, url: client.authURL(path + "/challenge"), bearer: .user(idToken),
            body: EmptyBody())
        let challenge = try await client.send(challengeRequest, context: challengeContext, as: FactorChallenge.self)
        let verifyContext = SupabaseCallContext(
            name: "auth.factors.verify", sentUserToken: true, fallback: .invalidVerificationCode,
            validationReason: .invalidVerificationCode)
        let verifyRequest = client.request(
            verifyContext.name, .POST, url: client.authURL(path + "/verify"), bearer: .user(idToken),
            body: VerifyFactorBody(challengeId: challenge.id, code: code.trimmingCharacters(in: .whitespaces)))
        return try await client.send(verifyRequest, context: verifyContext, as: GoTrueSession.self)
    }

    /// The pending sign-in's `aal1` access token as a bearer.
    func pendingToken(_ pending: PendingSecondFactor) -> IDToken {
        let now = client.now()
        return IDToken(
            rawValue: pending.credential, expiresAt: pending.expiresAt ?? now.addingTimeInterval(60), issuedAt: now,
            signInProvider: SupabaseClaims.signInProvider(of: pending.credential))
    }
}
