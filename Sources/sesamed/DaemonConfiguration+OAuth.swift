import Foundation
import SesameOAuth
import TOMLKit

/// `[oauth."<providerId>"]` of `sesamed.toml`: one table per identity provider that device
/// sign-in may use (docs/configuration.md, "Sign-in flows").
extension DaemonConfiguration {
    static let oauthKeys: Set<String> = [
        "client_id", "client_secret", "device_authorization_endpoint", "token_endpoint", "scopes",
    ]

    /// Reads every provider table of `[oauth]`. Unknown keys, values of the wrong type, an
    /// endpoint that is not an http(s) URL or one endpoint without the other stop the daemon
    /// (78) with a message naming the key; never a value of `client_secret`.
    mutating func applyOAuth(_ value: any TOMLValueConvertible, file: String) throws(ConfigurationError) {
        guard let providers = value.table else {
            throw ConfigurationError(message: "\(file): 'oauth' must hold tables such as [oauth.\"google.com\"]")
        }
        for providerId in providers.keys {
            let name = "oauth.\"\(providerId)\""
            guard Self.isValidProviderId(providerId) else {
                throw ConfigurationError(
                    message:
                        "\(file): [\(name)] is not a provider id (letters, digits and . - _ : such as \"google.com\")")
            }
            guard let table = providers[providerId]?.table else {
                throw ConfigurationError(message: "\(file): '\(name)' must be a table ([\(name)])")
            }
            oauthProviders[providerId] = try Self.oauthProvider(table, name: name, file: file)
        }
    }

    private static func oauthProvider(
        _ table: TOMLTable, name: String, file: String
    ) throws(ConfigurationError) -> OAuthProviderConfiguration {
        var strings: [String: String] = [:]
        var scopes: [String]?
        for key in table.keys {
            guard oauthKeys.contains(key), let value = table[key] else {
                throw ConfigurationError(message: "\(file): unknown key '\(name).\(key)'")
            }
            if key == "scopes" {
                scopes = try Self.scopes(value, name: "\(name).scopes", file: file)
            } else {
                guard let string = value.string else {
                    throw ConfigurationError(message: "\(file): '\(name).\(key)' must be a string")
                }
                strings[key] = string
            }
        }
        let provider = OAuthProviderConfiguration(
            clientId: strings["client_id"], clientSecret: strings["client_secret"],
            deviceAuthorizationEndpoint: strings["device_authorization_endpoint"],
            tokenEndpoint: strings["token_endpoint"], scopes: scopes)
        for (key, url) in [
            ("device_authorization_endpoint", provider.deviceAuthorizationEndpoint),
            ("token_endpoint", provider.tokenEndpoint),
        ] {
            guard let url else { continue }
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
                scheme == "https" || scheme == "http", parsed.host?.isEmpty == false
            else {
                throw ConfigurationError(
                    message: "\(file): '\(name).\(key)' must be an http(s) URL such as \"https://idp.example/device\"")
            }
        }
        if (provider.deviceAuthorizationEndpoint == nil) != (provider.tokenEndpoint == nil) {
            throw ConfigurationError(
                message:
                    "\(file): [\(name)] sets one of device_authorization_endpoint and token_endpoint: set both, or neither"
            )
        }
        return provider
    }

    /// `scopes`: an array of strings, each one scope (no spaces).
    private static func scopes(
        _ value: any TOMLValueConvertible, name: String, file: String
    ) throws(ConfigurationError) -> [String] {
        let wrong = ConfigurationError(
            message: "\(file): '\(name)' must be an array of scopes such as [\"openid\", \"email\"]")
        guard let array = value.array else { throw wrong }
        var scopes: [String] = []
        for element in array {
            guard let scope = element.string, !scope.isEmpty,
                !scope.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) })
            else { throw wrong }
            scopes.append(scope)
        }
        return scopes
    }

    /// A provider id as Firebase spells them: `google.com`, `oidc.example`, `custom:x`.
    static func isValidProviderId(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-_:".unicodeScalars.contains($0))
            }
    }
}
