import Foundation

/// An email action link (sign-in, password reset, …), parsed the way Firebase's SDKs do.
///
/// Accepted forms: the action URL itself; a URL whose query has `link` (the action URL,
/// which may itself carry `deep_link_id`); a URL whose query has `deep_link_id` (iOS custom
/// schemes), which may carry an inner `link`. The chosen URL must carry `apiKey`, `oobCode` and
/// `mode`.
public struct EmailActionLink: Sendable, Hashable, CustomStringConvertible {
    /// The single-use code. A secret: never log it.
    public let oobCode: String
    public let mode: String
    public let apiKey: String
    public let continueUrl: String?

    /// Parses `link`; nil when it is not an email action link.
    public init?(_ link: String) {
        guard let outer = URLComponents(string: link.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return nil
        }
        var chosen = outer
        let outerItems = outer.queryItems ?? []
        func value(_ name: String, in items: [URLQueryItem]) -> String? {
            items.first { $0.name == name }?.value
        }
        if let inner = value("link", in: outerItems), let innerURL = URLComponents(string: inner) {
            chosen = innerURL
            if let deeper = value("deep_link_id", in: innerURL.queryItems ?? []),
                let deeperURL = URLComponents(string: deeper)
            {
                chosen = deeperURL
            }
        } else if let deep = value("deep_link_id", in: outerItems), let deepURL = URLComponents(string: deep) {
            chosen = deepURL
            if let inner = value("link", in: deepURL.queryItems ?? []), let innerURL = URLComponents(string: inner) {
                chosen = innerURL
            }
        }
        let items = chosen.queryItems ?? []
        guard let code = value("oobCode", in: items), !code.isEmpty,
            let mode = value("mode", in: items), !mode.isEmpty,
            let apiKey = value("apiKey", in: items), !apiKey.isEmpty
        else { return nil }
        self.oobCode = code
        self.mode = mode
        self.apiKey = apiKey
        self.continueUrl = value("continueUrl", in: items)
    }

    /// Whether this is a passwordless sign-in link (`mode=signIn`).
    public var isSignIn: Bool { mode == "signIn" }

    public var description: String { "EmailActionLink(mode: \(mode), redacted)" }
}
