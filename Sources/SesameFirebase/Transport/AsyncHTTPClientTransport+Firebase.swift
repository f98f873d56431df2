import AsyncHTTPClient
import Foundation
import NIOHTTP1
import SesameCore
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

extension HTTPTransport {
    /// Sends `request`, turning a transport failure into the domain's transient errors.
    func exchange(_ request: HTTPRequest) async throws(RemoteAuthError) -> HTTPResponse {
        do {
            return try await send(request)
        } catch .responseTooLarge(let limit) {
            throw .malformedResponse("\(request.name): response body larger than \(limit) bytes")
        } catch {
            throw .transport(error.description)
        }
    }
}

extension HTTPResponse {
    /// How long a 429 (or a rate-limit code) asked to wait: `Retry-After` in milliseconds.
    func retryAfterMs(now: Date) -> Int? {
        RetryAfter.milliseconds(headers.first(name: "Retry-After"), now: now)
    }
}
