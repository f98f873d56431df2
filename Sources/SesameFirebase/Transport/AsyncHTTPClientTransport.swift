import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1
import SesameCore

/// A ``FirebaseTransport`` over AsyncHTTPClient.
///
/// Either uses a client it is given (shared with other adapters; the caller shuts it down) or
/// owns one made with ``clientConfiguration(for:)``, which ``shutdown()`` shuts down.
/// Redirects are not followed: Firebase's REST APIs never redirect, and a redirect must not
/// carry the API key or an `auth=` token elsewhere.
public final class AsyncHTTPClientTransport: FirebaseTransport {
    /// The largest response body accepted; larger ones are ``RemoteAuthError/malformedResponse(_:)``.
    public static let maximumResponseBytes = 1 << 20

    private let client: HTTPClient
    private let ownsClient: Bool
    private let requestTimeout: TimeAmount

    /// A transport over `client`, which the caller keeps and shuts down.
    /// - Parameters:
    ///   - client: configure it with ``clientConfiguration(for:)`` to get the short connect
    ///     timeout.
    ///   - requestTimeout: the deadline of each whole call.
    public init(client: HTTPClient, requestTimeout: Duration) {
        self.client = client
        self.ownsClient = false
        self.requestTimeout = TimeAmount(requestTimeout)
    }

    /// A transport that owns a new client configured from `configuration`; call ``shutdown()``.
    public init(configuration: FirebaseConfiguration) {
        self.client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: Self.clientConfiguration(for: configuration)
        )
        self.ownsClient = true
        self.requestTimeout = TimeAmount(configuration.requestTimeout)
    }

    /// An AsyncHTTPClient configuration with `configuration`'s connect timeout, no redirects
    /// and no automatic decompression.
    public static func clientConfiguration(for configuration: FirebaseConfiguration) -> HTTPClient.Configuration {
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.timeout = .init(connect: TimeAmount(configuration.connectTimeout))
        clientConfiguration.redirectConfiguration = .disallow
        return clientConfiguration
    }

    /// Shuts the client down when this transport owns it; a no-op for an injected client.
    public func shutdown() async {
        guard ownsClient else { return }
        try? await client.shutdown()
    }

    public func send(_ request: FirebaseHTTPRequest) async throws(RemoteAuthError) -> FirebaseHTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = request.method
        outgoing.headers = request.headers
        if let body = request.body {
            outgoing.body = .bytes(body)
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, timeout: requestTimeout)
        } catch {
            throw .transport(Self.describe(error))
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: Self.maximumResponseBytes)
        } catch is NIOTooManyBytesError {
            throw .malformedResponse("\(request.name): response body larger than \(Self.maximumResponseBytes) bytes")
        } catch {
            throw .transport(Self.describe(error))
        }
        return FirebaseHTTPResponse(status: Int(response.status.code), headers: response.headers, body: body)
    }

    /// A secret-free description of a client error: its kind, never a URL.
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "connect timed out"
            case .deadlineExceeded, .readTimeout, .writeTimeout: return "request timed out"
            case .remoteConnectionClosed: return "connection closed by the server"
            case .cancelled: return "request cancelled"
            default: return "request failed (HTTPClientError)"
            }
        }
        if error is CancellationError { return "request cancelled" }
        if let error = error as? IOError {
            return "connection failed (errno \(error.errnoCode))"
        }
        let typeName = String(describing: type(of: error))
        if typeName.contains("Connect") { return "connect failed (\(typeName))" }
        return "request failed (\(typeName))"
    }
}

extension TimeAmount {
    /// The same span in NIO's unit (nanoseconds, saturating).
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanos = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if nanos.overflow {
            self = .nanoseconds(Int64.max)
        } else {
            self = .nanoseconds(nanos.partialValue + attoseconds / 1_000_000_000)
        }
    }
}
