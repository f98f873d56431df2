import Foundation
import SesameCore
import SesameLocalAPI

/// `accounts:createAuthUri` with a `providerId` (the start of a browser sign-in, served by the
/// fake identity provider) and what `accounts:signInWithIdp` needs from it.
extension AccountStore {
    /// Provider ids that are not identity providers.
    static let nonIdpProviders: Set<String> = ["password", "phone", "emailLink", "anonymous", "custom"]

    /// `accounts:createAuthUri` with `providerId` and `continueUri`: answers the fake identity
    /// provider's `authorize` URL on this port, with `redirect_uri` = `continueUri`, a fresh
    /// `state`, and the `sessionId` that `signInWithIdp` must send back.
    func federatedAuthUri(
        providerId: String, continueUri: String, baseURL: String
    ) throws(IdentityToolkitError) -> JSONValue {
        if providerId.isEmpty || Self.nonIdpProviders.contains(providerId) || providerId.contains("/") {
            throw .invalid("INVALID_PROVIDER_ID : Provider Id is not supported.")
        }
        let at = nowMilliseconds
        idpSessions = idpSessions.filter { at - $0.value.createdAt < IdpSession.lifetime * 1000 }
        let sessionId = RandomIdentifier.make(27, from: RandomIdentifier.alphanumerics)
        let state = RandomIdentifier.make(32, from: RandomIdentifier.urlSafe)
        idpSessions[sessionId] = IdpSession(
            providerId: providerId, continueUri: continueUri, state: state, createdAt: at)
        let scope = providerId == "github.com" ? "read:user user:email" : "openid email profile"
        let authorize = FakeIdentityProvider.issuer(base: baseURL, providerId: providerId) + "/authorize"
        let authUri = PercentEncoding.url(
            authorize,
            query: [
                ("response_type", "code"), ("client_id", tokens.projectId), ("redirect_uri", continueUri),
                ("state", state), ("scope", scope),
            ])
        return [
            "kind": "identitytoolkit#CreateAuthUriResponse", "authUri": .string(authUri),
            "providerId": .string(providerId), "sessionId": .string(sessionId),
        ]
    }

    /// The live session of `sessionId`, if any.
    func idpSession(_ sessionId: String) -> IdpSession? {
        idpSessions[sessionId].flatMap { nowMilliseconds - $0.createdAt < IdpSession.lifetime * 1000 ? $0 : nil }
    }

    /// Ends a session once its code was exchanged.
    func endIdpSession(_ sessionId: String) { idpSessions[sessionId] = nil }

    /// The parameters of a `signInWithIdp` call: the `requestUri`'s query, then `postBody`, then
    /// the `requestUri`'s fragment (a later one wins), as Google's emulator merges them.
    static func idpParameters(_ body: SignInWithIdpRequest) throws(IdentityToolkitError) -> [String: String] {
        guard let requestUri = body.requestUri.nonEmpty else { throw .invalid("MISSING_REQUEST_URI") }
        guard let components = URLComponents(string: requestUri), components.scheme != nil else {
            throw .invalid("INVALID_REQUEST_URI")
        }
        var params: [String: String] = [:]
        for (k, v) in PercentEncoding.formFields(components.percentEncodedQuery ?? "") { params[k] = v }
        for (k, v) in PercentEncoding.formFields(body.postBody ?? "") { params[k] = v }
        for (k, v) in PercentEncoding.formFields(components.percentEncodedFragment ?? "") { params[k] = v }
        return params
    }
}
