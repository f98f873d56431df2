import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// An ``HTTPTransport`` over AsyncHTTPClient.
///
/// Either uses a client it is given (shared with other adapters; the caller shuts it down) or
/// owns one made with ``clientConfiguration(connectTimeout:)``, which ``shutdown()`` shuts down.
/// Redirects are not followed: the backends' REST APIs never redirect, and a redirect must not
/// carry an API key or a bearer token elsewhere.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// The largest response body accepted; larger ones are
    /// ``HTTPTransportError/responseTooLarge(limit:)``.
    public static let maximumResponseBytes = 1 << 20

    private let client: HTTPClient
    private let ownsClient: Bool
    private let requestTimeout: TimeAmount

    /// A transport over `client`, which the caller keeps and shuts down.
    /// - Parameters:
    ///   - client: configure it with ``clientConfiguration(connectTimeout:)`` to get the short
    ///     connect timeout.
    ///   - requestTimeout: the deadline of each whole call.
    public init(client: HTTPClient, requestTimeout: Duration) {
        self.client = client
        self.ownsClient = false
        self.requestTimeout = TimeAmount(requestTimeout)
    }

    /// A transport that owns a new client; call ``shutdown()``.
    /// - Parameters:
    ///   - connectTimeout: how long a TCP connect may take. Short, so an offline machine finds
    ///     out fast.
    ///   - requestTimeout: how long a whole call (connect, send, receive) may take.
    public init(connectTimeout: Duration, requestTimeout: Duration) {
        self.client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: Self.clientConfiguration(connectTimeout: connectTimeout)
        )
        self.ownsClient = true
        self.requestTimeout = TimeAmount(requestTimeout)
    }

    /// An AsyncHTTPClient configuration with `connectTimeout`, no redirects and no automatic
    /// decompression.
    public static func clientConfiguration(connectTimeout: Duration) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: TimeAmount(connectTimeout))
        configuration.redirectConfiguration = .disallow
        return configuration
    }

    /// Shuts the client down when this transport owns it; a no-op for an injected client.
    public func shutdown() async {
        guard ownsClient else { return }
        try? await client.shutdown()
    }

    public func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = request.method
        outgoing.headers = request.headers
        if let body = request.body {
            outgoing.body = .bytes(body)
        }
        // One deadline for the whole call: `execute` returns at the response head, so the body
        // is read against what is left of it (a backend that drips its body must not hold a
        // caller, or the single refresh every caller shares, past the deadline).
        let deadline = NIODeadline.now() + requestTimeout
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, deadline: deadline)
        } catch {
            throw Self.classify(error)
        }
        let body: ByteBuffer
        do {
            body = try await Self.collect(response.body, before: deadline)
        } catch is NIOTooManyBytesError {
            throw .responseTooLarge(limit: Self.maximumResponseBytes)
        } catch {
            throw Self.classify(error)
        }
        return HTTPResponse(status: Int(response.status.code), headers: response.headers, body: body)
    }

    /// The whole of `body` (at most ``maximumResponseBytes``), or `HTTPClientError.deadlineExceeded`
    /// once `deadline` passes; the read is then cancelled, which ends the request.
    static func collect(_ body: HTTPClientResponse.Body, before deadline: NIODeadline) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: maximumResponseBytes) }
            group.addTask {
                let left = (deadline - .now()).nanoseconds
                if left > 0 { try await Task.sleep(nanoseconds: UInt64(left)) }
                return nil
            }
            defer { group.cancelAll() }
            guard case let buffer?? = try await group.next() else { throw HTTPClientError.deadlineExceeded }
            return buffer
        }
    }

    /// A secret-free classification of a client error: its kind, never a URL.
    static func classify(_ error: any Error) -> HTTPTransportError {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return .connectTimedOut
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .requestTimedOut
            case .remoteConnectionClosed: return .connectionClosed
            case .cancelled: return .cancelled
            default: return .failed(kind: "HTTPClientError")
            }
        }
        if error is CancellationError { return .cancelled }
        if let error = error as? IOError { return .connectFailed(errno: error.errnoCode) }
        let typeName = String(describing: type(of: error))
        if typeName.contains("Connect") { return .connectFailed(errno: nil) }
        return .failed(kind: typeName)
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
