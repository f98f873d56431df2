import NIOHTTP1
import SesameCore

extension SupabaseAuthProvider {
    /// `POST /otp {email, create_user: true}` (`?redirect_to=` with `continueUrl`): GoTrue mails
    /// both a link and a one-time code; either completes the sign-in.
    public func sendSignInLink(email: String, continueUrl: String?) async throws(RemoteAuthError) {
        let context = SupabaseCallContext(name: "auth.otp", validationReason: .invalidEmail, email: email)
        let query = continueUrl.map { [("redirect_to", $0)] } ?? []
        let request = client.request(
            context.name, .POST, url: client.authURL("otp", query: query), bearer: .nobody, body: OTPBody(email: email))
        try await client.send(request, context: context)
    }

    /// Checks that `proof` is a link with a token, or a non-empty code, without calling GoTrue.
    public func checkSignInProof(_ proof: EmailSignInProof) throws(RemoteAuthError) {
        _ = try Self.emailProof(proof)
    }

    /// Spends the email's proof at `POST /verify`: the one-time code from the email (with the
    /// address), or the email's link (its `token`/`token_hash` and `type` are read). GoTrue cannot
    /// attach an email to an anonymous user by a one-time code, so `linkingTo` is not used: the
    /// result is the address's own account (created by ``sendSignInLink(email:continueUrl:)``
    /// when it was new), and the service merges the guest into it. The proof is spent even when
    /// the call fails.
    public func signIn(
        email: String, proof: EmailSignInProof, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> SignInResult {
        let proof = try Self.emailProof(proof)
        let context = SupabaseCallContext(
            name: "auth.verify", fallback: .invalidActionCode, validationReason: .invalidActionCode, email: email,
            providerId: "password")
        let request = client.request(
            context.name, .POST, url: client.authURL("verify"), bearer: .nobody, body: proof.verifyBody(email: email))
        let answer = try await client.send(request, context: context, as: GoTrueSession.self)
        return try signedIn(answer, name: context.name, isNewUser: false)
    }

    static func emailProof(_ proof: EmailSignInProof) throws(RemoteAuthError) -> SupabaseEmailProof {
        guard let parsed = SupabaseEmailProof(proof) else {
            throw .rejected(
                AuthError(
                    .invalidActionCode,
                    message: "That is not a sign-in link or code: paste the whole link, or the code, from the email."))
        }
        return parsed
    }

    /// GoTrue does not tell which sign-in methods an email has: always nil (hidden), so the
    /// service signs in (and merges) rather than linking onto an address that may be taken.
    public func signInMethods(forEmail email: String) async throws(RemoteAuthError) -> [String]? {
        nil
    }
}
