import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// Features GoTrue has and the emulator does not serve: each answers as GoTrue does with the
/// feature off (its middleware's 404 with a feature code), never the generic 404. The list is in
/// docs/emulator.md ("What is not served").
extension GoTrueRouter {
    /// Who GoTrue checks before the feature switch.
    enum Gate: Sendable {
        /// Nothing but the gateway's key.
        case none
        /// A user's bearer (`requireAuthentication`).
        case user
        /// A service_role bearer (`requireAdminCredentials`).
        case admin
    }

    /// A route of a disabled feature and GoTrue's answer for it.
    struct DisabledRoute: Sendable {
        var subpath: String
        var methods: [HTTPRequest.Method]
        var gate: Gate
        var error: GoTrueError
    }

    static let samlDisabled = GoTrueError(
        httpStatus: 404, code: "saml_provider_disabled", message: "SAML 2.0 is disabled")
    static let oauthServerDisabled = GoTrueError(
        httpStatus: 404, code: "feature_disabled", message: "OAuth server is disabled")
    static let customProvidersDisabled = GoTrueError(
        httpStatus: 404, code: "feature_disabled", message: "Custom OAuth providers are disabled")
    static let manualLinkingDisabled = GoTrueError(
        httpStatus: 404, code: "manual_linking_disabled", message: "Manual linking is disabled")
    static let passkeysDisabled = GoTrueError(
        httpStatus: 404, code: "passkey_disabled", message: "Passkeys are disabled")

    /// GoTrue's routes behind `requireSAMLEnabled`, `requireOAuthServerEnabled`,
    /// `requireCustomOAuthEnabled`, `requireManualLinkingEnabled` and `requirePasskeyEnabled`
    /// (`api.go`), with the checks that run before the switch.
    static let disabledRoutes: [DisabledRoute] = [
        DisabledRoute(subpath: "sso", methods: [.post], gate: .none, error: samlDisabled),
        DisabledRoute(subpath: "sso/saml/metadata", methods: [.get], gate: .none, error: samlDisabled),
        DisabledRoute(subpath: "sso/saml/acs", methods: [.post], gate: .none, error: samlDisabled),
        DisabledRoute(
            subpath: "admin/oauth/clients", methods: [.get, .post], gate: .admin, error: oauthServerDisabled),
        DisabledRoute(
            subpath: "admin/oauth/clients/{id}", methods: [.get, .put, .delete], gate: .admin,
            error: oauthServerDisabled),
        DisabledRoute(
            subpath: "admin/oauth/clients/{id}/regenerate_secret", methods: [.post], gate: .admin,
            error: oauthServerDisabled),
        DisabledRoute(subpath: "oauth/clients/register", methods: [.post], gate: .none, error: oauthServerDisabled),
        DisabledRoute(subpath: "oauth/token", methods: [.post], gate: .none, error: oauthServerDisabled),
        DisabledRoute(subpath: "oauth/userinfo", methods: [.get], gate: .none, error: oauthServerDisabled),
        DisabledRoute(subpath: "oauth/authorize", methods: [.get], gate: .none, error: oauthServerDisabled),
        DisabledRoute(
            subpath: "oauth/authorizations/{id}", methods: [.get], gate: .none, error: oauthServerDisabled),
        DisabledRoute(
            subpath: "oauth/authorizations/{id}/consent", methods: [.post], gate: .none, error: oauthServerDisabled),
        DisabledRoute(subpath: "user/oauth/grants", methods: [.get, .delete], gate: .user, error: oauthServerDisabled),
        DisabledRoute(
            subpath: ".well-known/oauth-authorization-server", methods: [.get], gate: .none,
            error: oauthServerDisabled),
        DisabledRoute(
            subpath: "admin/custom-providers", methods: [.get, .post], gate: .admin, error: customProvidersDisabled),
        DisabledRoute(
            subpath: "admin/custom-providers/{id}", methods: [.get, .put, .delete], gate: .admin,
            error: customProvidersDisabled),
        DisabledRoute(subpath: "user/identities/authorize", methods: [.get], gate: .user, error: manualLinkingDisabled),
        DisabledRoute(subpath: "user/identities/{id}", methods: [.delete], gate: .user, error: manualLinkingDisabled),
        DisabledRoute(
            subpath: "passkeys/authentication/options", methods: [.post], gate: .none, error: passkeysDisabled),
        DisabledRoute(
            subpath: "passkeys/authentication/verify", methods: [.post], gate: .none, error: passkeysDisabled),
        DisabledRoute(
            subpath: "passkeys/registration/options", methods: [.post], gate: .none, error: passkeysDisabled),
        DisabledRoute(
            subpath: "passkeys/registration/verify", methods: [.post], gate: .none, error: passkeysDisabled),
        DisabledRoute(subpath: "passkeys", methods: [.get], gate: .none, error: passkeysDisabled),
        DisabledRoute(subpath: "passkeys/{id}", methods: [.patch, .delete], gate: .none, error: passkeysDisabled),
    ]

    func addDisabledRoutes(to router: Router<EmulatorRequestContext>) {
        for route in Self.disabledRoutes {
            for method in route.methods {
                on(router, route.subpath, method, admin: route.gate == .admin) {
                    _, call throws(GoTrueError) in
                    if route.gate == .user { _ = try await store.authenticate(bearer: call.bearer) }
                    throw route.error
                }
            }
        }
    }
}
