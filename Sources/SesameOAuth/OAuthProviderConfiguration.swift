import Foundation

/// One `[oauth."<providerId>"]` table of `sesamed.toml`: what the device flow needs to know
/// about an identity provider. Every field is optional: `google.com` and `github.com` have
/// built-in endpoints and scopes, and against an emulator a table may be left out entirely
/// (``OAuthDeviceClient`` says how the fields combine).
///
/// `clientSecret` is a secret: never logged, never in an error.
public struct OAuthProviderConfiguration: Sendable, Hashable, CustomStringConvertible {
    public var clientId: String?
    public var clientSecret: String?
    public var deviceAuthorizationEndpoint: String?
    public var tokenEndpoint: String?
    public var scopes: [String]?

    public init(
        clientId: String? = nil, clientSecret: String? = nil, deviceAuthorizationEndpoint: String? = nil,
        tokenEndpoint: String? = nil, scopes: [String]? = nil
    ) {
        self.clientId = Self.nonEmpty(clientId)
        self.clientSecret = Self.nonEmpty(clientSecret)
        self.deviceAuthorizationEndpoint = Self.nonEmpty(deviceAuthorizationEndpoint)
        self.tokenEndpoint = Self.nonEmpty(tokenEndpoint)
        self.scopes = scopes
    }

    /// Whether the table sets neither endpoint nor a client id (then an emulator's fake
    /// provider is used when the daemon talks to an emulator).
    public var setsNoEndpointOrClient: Bool {
        clientId == nil && deviceAuthorizationEndpoint == nil && tokenEndpoint == nil
    }

    /// The endpoints and whether a secret is set; never the secret.
    public var description: String {
        "OAuthProviderConfiguration(clientId: \(clientId != nil), clientSecret: \(clientSecret != nil), "
            + "device: \(deviceAuthorizationEndpoint ?? "-"), token: \(tokenEndpoint ?? "-"))"
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }
}

/// What the device flow knows of a provider without any table: its endpoints, the scopes to
/// ask for, and where the client secret goes.
struct BuiltInOAuthProvider: Sendable, Hashable {
    var deviceAuthorizationEndpoint: String
    var tokenEndpoint: String
    var scopes: [String]
    /// Whether `client_secret` (when set) is also sent with the device authorization request.
    /// Google's takes `client_id` and `scope` only; its token endpoint wants the secret.
    var sendsSecretToDeviceEndpoint: Bool

    static let google = BuiltInOAuthProvider(
        deviceAuthorizationEndpoint: "https://oauth2.googleapis.com/device/code",
        tokenEndpoint: "https://oauth2.googleapis.com/token", scopes: ["openid", "email", "profile"],
        sendsSecretToDeviceEndpoint: false)

    /// GitHub is not OIDC: its token answer is an access token only.
    static let github = BuiltInOAuthProvider(
        deviceAuthorizationEndpoint: "https://github.com/login/device/code",
        tokenEndpoint: "https://github.com/login/oauth/access_token", scopes: ["read:user", "user:email"],
        sendsSecretToDeviceEndpoint: true)

    /// The built-in provider of `providerId`, if any.
    static func named(_ providerId: String) -> BuiltInOAuthProvider? {
        switch providerId {
        case "google.com": .google
        case "github.com": .github
        default: nil
        }
    }

    /// The scopes asked of a provider with neither built-in nor configured ones.
    static let defaultScopes = ["openid", "email", "profile"]
}
