import NIOHTTP1
import SesameCore
import SesameHTTP

extension SupabaseAuthProvider {
    /// `PUT /user {"data":{"display_name":…}}` (null removes it). GoTrue issues no new tokens
    /// here: nil.
    public func updateProfile(_ idToken: IDToken, displayName: String?) async throws(RemoteAuthError) -> TokenGrant? {
        let context = SupabaseCallContext(name: "auth.user.update", sentUserToken: true)
        let name = displayName.flatMap { $0.isEmpty ? nil : $0 }
        let request = client.request(
            context.name, .PUT, url: client.authURL("user"), bearer: .user(idToken),
            body: DisplayNameBody(displayName: name))
        try await client.send(request, context: context)
        return nil
    }

    /// Removes the identities of `providerIds` (`password` removes the `email` identity):
    /// `GET /user`, then `DELETE /user/identities/<identity_id>` for each. GoTrue allows this
    /// only with manual linking enabled, and never for an account's last identity.
    public func unlink(_ idToken: IDToken, providerIds: [String]) async throws(RemoteAuthError) {
        let identities = try await currentUser(idToken).identities ?? []
        for providerId in providerIds {
            let name = SupabaseProviderIds.supabaseName(providerId)
            guard let identity = identities.first(where: { $0.provider == name }),
                let identityId = identity.identityId ?? identity.id
            else { throw .rejected(AuthError(.noSuchProvider, providerId: providerId)) }
            let context = SupabaseCallContext(
                name: "auth.user.identities.delete", sentUserToken: true, providerId: providerId)
            let request = client.request(
                context.name, .DELETE,
                url: client.authURL("user/identities/" + PercentEncoding.pathSegment(identityId)),
                bearer: .user(idToken))
            try await client.send(request, context: context)
        }
    }
}
