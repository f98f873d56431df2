import AsyncHTTPClient
import Foundation
import Logging
import SesameHTTP

extension FirebaseAuthProvider {
    /// A provider over an `HTTPClient` the caller owns (and shuts down), with
    /// `configuration.requestTimeout` per call. Configure the client with
    /// ``AsyncHTTPClientTransport/clientConfiguration(for:)`` for the short connect timeout.
    public init(
        configuration: FirebaseConfiguration,
        httpClient: HTTPClient,
        logger: Logger = Logger(label: "sesame.firebase", factory: { _ in SwiftLogNoOpLogHandler() }),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            configuration: configuration,
            transport: AsyncHTTPClientTransport(client: httpClient, requestTimeout: configuration.requestTimeout),
            logger: logger, now: now
        )
    }
}
