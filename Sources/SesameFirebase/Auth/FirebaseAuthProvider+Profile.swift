import SesameCore

extension FirebaseAuthProvider {
    /// Sets `displayName`, or removes it (`deleteAttribute: ["DISPLAY_NAME"]`) when nil or
    /// empty. Returns tokens only when the backend issued new ones.
    public func updateProfile(_ idToken: IDToken, displayName: String?) async throws(RemoteAuthError) -> TokenGrant? {
        let context = FirebaseCallContext(.update, sentIDToken: true)
        var request = UpdateAccountRequest(idToken: idToken.rawValue)
        if let displayName, !displayName.isEmpty {
            request.displayName = displayName
        } else {
            request.deleteAttribute = ["DISPLAY_NAME"]
        }
        let answer = try await client.post(request, context: context, as: UpdateAccountResponse.self)
        guard let localId = answer.localId, let newIDToken = answer.idToken, let refreshToken = answer.refreshToken,
            let expiresIn = answer.expiresIn
        else { return nil }
        return TokenGrant(
            uid: localId,
            idToken: try tokens.make(rawValue: newIDToken, expiresIn: expiresIn.value, endpoint: .update),
            refreshToken: RefreshToken(refreshToken)
        )
    }

    /// Removes `providerIds` (`deleteProvider`); `password` removes email sign-in altogether.
    public func unlink(_ idToken: IDToken, providerIds: [String]) async throws(RemoteAuthError) {
        let context = FirebaseCallContext(.update, sentIDToken: true)
        var request = UpdateAccountRequest(idToken: idToken.rawValue)
        request.deleteProvider = providerIds
        _ = try await client.post(request, context: context, as: EmptyResponse.self)
    }
}
