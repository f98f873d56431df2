import AsyncHTTPClient
import SesameHTTP

extension AsyncHTTPClientTransport {
    /// A transport that owns a new client with `configuration`'s timeouts; call `shutdown()`.
    public convenience init(configuration: FirebaseConfiguration) {
        self.init(connectTimeout: configuration.connectTimeout, requestTimeout: configuration.requestTimeout)
    }

    /// An AsyncHTTPClient configuration with `configuration`'s connect timeout and no redirects.
    public static func clientConfiguration(for configuration: FirebaseConfiguration) -> HTTPClient.Configuration {
        clientConfiguration(connectTimeout: configuration.connectTimeout)
    }
}
