import NIOHTTP1
import SesameCore

extension SupabaseAuthProvider {
    /// `POST /token?grant_type=id_token {provider, id_token, access_token?}`; with `linkingTo`
    /// also `link_identity: true` and the user's bearer, which adds the identity to that user
    /// (same id). The provider id is sent in Supabase's name (`google.com` → `google`). GoTrue
    /// takes only ID tokens (OIDC): an access token alone is `invalid-credential`.
    public func signIn(
        federated: FederatedCredential, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> SignInResult {
        guard !federated.providerId.isEmpty, let idToken = federated.idToken, !idToken.isEmpty else {
            throw .rejected(
                AuthError(
                    .invalidCredential,
                    message:
                        "Supabase signs in with an identity provider's ID token: give the ID token (--id-token), not only an access token.",
                    providerId: federated.providerId))
        }
        let context = SupabaseCallContext(
            name: "auth.token.id_token", sentUserToken: linkingTo != nil, fallback: .invalidCredential,
            validationReason: .invalidCredential, providerId: federated.providerId)
        let body = IDTokenGrantBody(
            provider: SupabaseProviderIds.supabaseName(federated.providerId), idToken: idToken,
            accessToken: federated.accessToken.flatMap { $0.isEmpty ? nil : $0 },
            linkIdentity: linkingTo == nil ? nil : true)
        let request = client.request(
            context.name, .POST, url: client.authURL("token", query: [("grant_type", "id_token")]),
            bearer: linkingTo.map { SupabaseClient.Bearer.user($0) } ?? SupabaseClient.Bearer.nobody, body: body)
        let answer = try await client.send(request, context: context, as: GoTrueSession.self)
        return try signedIn(answer, name: context.name, isNewUser: false)
    }
}
