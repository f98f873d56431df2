import SesameCore

/// A provider's device-flow endpoints and client, resolved from its `[oauth."<id>"]` table, the
/// built-in defaults and the emulator rule. Holds the client secret: never logged.
struct ResolvedDeviceProvider: Sendable, Hashable, CustomStringConvertible {
    var providerId: String
    var deviceAuthorizationEndpoint: String
    var tokenEndpoint: String
    var clientId: String
    var clientSecret: String?
    var scopes: [String]
    /// Whether the token answer carries an OIDC ID token.
    var yieldsIDToken: Bool
    /// Whether `clientSecret` is sent with the device authorization request too (it always is
    /// with the token request).
    var sendsSecretToDeviceEndpoint: Bool

    var description: String { "ResolvedDeviceProvider(\(providerId), redacted)" }
}

/// Resolves a provider id into its device-flow endpoints and client (docs/configuration.md,
/// "Sign-in flows"):
///
/// 1. Against an emulator (`emulatorBase` set), a provider whose table sets no endpoint and no
///    `client_id` (or that has no table) uses the emulator's fake provider:
///    `<base>/emulator/v1/idp/<providerId>/device/code` and `…/token`, client id
///    `sesame-emulator`.
/// 2. Otherwise the endpoints are the table's, else the built-in ones (`google.com`,
///    `github.com`); a provider with neither is `.unsupported` naming
///    `[oauth."<id>"] device_authorization_endpoint`. A provider without a `client_id` is
///    `.unsupported` naming `[oauth."<id>"] client_id`.
/// 3. Scopes are the table's, else the built-in ones, else `openid email profile`. Every
///    provider but `github.com` yields an ID token when its scopes include `openid`.
struct DeviceProviderDirectory: Sendable {
    /// The client id sent to an emulator's fake provider.
    static let emulatorClientId = "sesame-emulator"

    let providers: [String: OAuthProviderConfiguration]
    /// `http://<auth emulator host>` or a loopback `supabase.url`; nil for real backends.
    let emulatorBase: String?

    func resolve(_ providerId: String) throws(RemoteAuthError) -> ResolvedDeviceProvider {
        guard !providerId.isEmpty else {
            throw .rejected(AuthError(.invalidCredential, message: "Name the identity provider to sign in with."))
        }
        let table = providers[providerId]
        let builtIn = BuiltInOAuthProvider.named(providerId)
        let scopes = table?.scopes ?? builtIn?.scopes ?? BuiltInOAuthProvider.defaultScopes
        let yieldsIDToken = providerId != "github.com" && scopes.contains("openid")
        if let emulatorBase, table?.setsNoEndpointOrClient ?? true {
            let base = emulatorBase + "/emulator/v1/idp/" + PercentEncoding.pathSegment(providerId)
            return ResolvedDeviceProvider(
                providerId: providerId, deviceAuthorizationEndpoint: base + "/device/code",
                tokenEndpoint: base + "/token",
                clientId: Self.emulatorClientId, clientSecret: nil, scopes: scopes,
                yieldsIDToken: providerId != "github.com", sendsSecretToDeviceEndpoint: false)
        }
        let key = "[oauth.\"\(providerId)\"]"
        guard let device = table?.deviceAuthorizationEndpoint ?? builtIn?.deviceAuthorizationEndpoint,
            let token = table?.tokenEndpoint ?? builtIn?.tokenEndpoint
        else {
            throw .unsupported(
                "Signing in with \(providerId) on a device needs the provider's device flow endpoints: set \(key) device_authorization_endpoint and token_endpoint in sesamed.toml (see docs/configuration.md)."
            )
        }
        guard let clientId = table?.clientId else {
            throw .unsupported(
                "Signing in with \(providerId) on a device needs an OAuth client id: set \(key) client_id in sesamed.toml (the provider's client for limited-input devices; see docs/providers.md)."
            )
        }
        return ResolvedDeviceProvider(
            providerId: providerId, deviceAuthorizationEndpoint: device, tokenEndpoint: token, clientId: clientId,
            clientSecret: table?.clientSecret, scopes: scopes, yieldsIDToken: yieldsIDToken,
            sendsSecretToDeviceEndpoint: builtIn?.sendsSecretToDeviceEndpoint ?? true)
    }
}
