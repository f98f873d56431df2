import HTTPTypes

/// Features GoTrue has and the emulator does not serve: each answers as GoTrue does with the feature off (its
/// middleware's 404 with a feature code), never the generic 404. Listed in docs/emulator.md ("What is not served").
extension GoTrueOperation {
    static let samlDisabled = GoTrueError.notFound("saml_provider_disabled", "SAML 2.0 is disabled")
    static let oauthServerDisabled = GoTrueError.notFound("feature_disabled", "OAuth server is disabled")
    static let customProvidersDisabled = GoTrueError.notFound("feature_disabled", "Custom OAuth providers are disabled")
    static let manualLinkingDisabled = GoTrueError.notFound("manual_linking_disabled", "Manual linking is disabled")
    static let passkeysDisabled = GoTrueError.notFound("passkey_disabled", "Passkeys are disabled")

    /// GoTrue's routes behind `requireSAMLEnabled`, `requireOAuthServerEnabled`,
    /// `requireCustomOAuthEnabled`, `requireManualLinkingEnabled` and `requirePasskeyEnabled`
    /// (`api.go`), with the checks that run before the switch: the key, a service_role bearer
    /// (`.admin`) or a user's bearer (`requireAuthentication`, `user: true`).
    static let disabled: [GoTrueOperation] = [
        off("sso", [.post], samlDisabled),
        off("sso/saml/metadata", [.get], samlDisabled),
        off("sso/saml/acs", [.post], samlDisabled),
        off("admin/oauth/clients", [.get, .post], oauthServerDisabled, gate: .admin),
        off("admin/oauth/clients/{id}", [.get, .put, .delete], oauthServerDisabled, gate: .admin),
        off("admin/oauth/clients/{id}/regenerate_secret", [.post], oauthServerDisabled, gate: .admin),
        off("oauth/clients/register", [.post], oauthServerDisabled),
        off("oauth/token", [.post], oauthServerDisabled),
        off("oauth/userinfo", [.get], oauthServerDisabled),
        off("oauth/authorize", [.get], oauthServerDisabled),
        off("oauth/authorizations/{id}", [.get], oauthServerDisabled),
        off("oauth/authorizations/{id}/consent", [.post], oauthServerDisabled),
        off("user/oauth/grants", [.get, .delete], oauthServerDisabled, user: true),
        off(".well-known/oauth-authorization-server", [.get], oauthServerDisabled),
        off("admin/custom-providers", [.get, .post], customProvidersDisabled, gate: .admin),
        off("admin/custom-providers/{id}", [.get, .put, .delete], customProvidersDisabled, gate: .admin),
        off("user/identities/authorize", [.get], manualLinkingDisabled, user: true),
        off("user/identities/{id}", [.delete], manualLinkingDisabled, user: true),
        off("passkeys/authentication/options", [.post], passkeysDisabled),
        off("passkeys/authentication/verify", [.post], passkeysDisabled),
        off("passkeys/registration/options", [.post], passkeysDisabled),
        off("passkeys/registration/verify", [.post], passkeysDisabled),
        off("passkeys", [.get], passkeysDisabled),
        off("passkeys/{id}", [.patch, .delete], passkeysDisabled),
    ].flatMap { $0 }

    /// A disabled route's operations, one a method: the gate's checks, then `error`.
    private static func off(
        _ path: String, _ methods: [HTTPRequest.Method], _ error: GoTrueError, gate: Gate = .apiKey,
        user: Bool = false
    ) -> [GoTrueOperation] {
        methods.map { method in
            GoTrueOperation(method, path, gate) { store, call throws(GoTrueError) in
                if user { _ = try await store.authenticate(bearer: call.bearer) }
                throw error
            }
        }
    }
}
