import AsyncHTTPClient
import Logging
import SesameHTTP

extension FirebaseUsernameDirectory {
    /// A directory over an `HTTPClient` the caller owns (and shuts down); nil when usernames
    /// are off.
    public init?(
        configuration: FirebaseConfiguration,
        httpClient: HTTPClient,
        logger: Logger = Logger(label: "sesame.firebase", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(
            configuration: configuration,
            transport: AsyncHTTPClientTransport(client: httpClient, requestTimeout: configuration.requestTimeout),
            logger: logger
        )
    }
}
