import SesameLocalAPI

/// A fake IdP credential resolved before ``AccountStore/signInWithIdp(_:resolved:)`` runs: from
/// an authorization code exchanged with the fake identity provider, or from an opaque access
/// token it issued.
struct ResolvedIdpCredential: Sendable {
    var providerId: String
    var claims: [String: JSONValue]
    var idToken: String?
    var accessToken: String
}
