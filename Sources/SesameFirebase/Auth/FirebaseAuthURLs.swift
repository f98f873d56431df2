import SesameCore
import SesameHTTP

/// The URLs of Identity Toolkit and Secure Token for one configuration (docs/firebase.md, "Endpoints").
///
/// Production: `https://identitytoolkit.googleapis.com/v1/accounts:<op>?key=…` and
/// `https://securetoken.googleapis.com/v1/token?key=…`; the multi-factor operations are at
/// `https://identitytoolkit.googleapis.com/v2/accounts/<op>?key=…`. With an emulator host the same paths
/// sit under `http://HOST:PORT/<production host>/…`, as Firebase's SDKs build them.
struct FirebaseAuthURLs: Sendable, Hashable {
    static let identityToolkitHost = "identitytoolkit.googleapis.com"
    static let secureTokenHost = "securetoken.googleapis.com"

    private let identityToolkitBase: String
    private let identityToolkitV2Base: String
    private let secureTokenBase: String
    private let encodedKey: String

    init(configuration: FirebaseConfiguration) {
        if let emulator = configuration.authEmulatorHost {
            identityToolkitBase = "http://\(emulator)/\(Self.identityToolkitHost)/v1/"
            identityToolkitV2Base = "http://\(emulator)/\(Self.identityToolkitHost)/v2/"
            secureTokenBase = "http://\(emulator)/\(Self.secureTokenHost)/v1/"
        } else {
            identityToolkitBase = "https://\(Self.identityToolkitHost)/v1/"
            identityToolkitV2Base = "https://\(Self.identityToolkitHost)/v2/"
            secureTokenBase = "https://\(Self.secureTokenHost)/v1/"
        }
        encodedKey = PercentEncoding.queryValue(configuration.apiKey)
    }

    /// The URL of `endpoint`, with the API key as `?key=`.
    func url(for endpoint: FirebaseEndpoint) -> String {
        let base = endpoint == .token ? secureTokenBase : endpoint.isV2 ? identityToolkitV2Base : identityToolkitBase
        return "\(base)\(endpoint.rawValue)?key=\(encodedKey)"
    }
}
