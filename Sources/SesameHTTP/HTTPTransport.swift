/// Sends one HTTP request and returns the complete response.
///
/// The seam between the backend adapters and the network: ``AsyncHTTPClientTransport`` in
/// production, a recording fake in tests. A transport sends each request exactly once and
/// never retries; whether to try again is the caller's decision.
public protocol HTTPTransport: Sendable {
    /// Sends `request`.
    /// - Returns: the response, whatever its status.
    /// - Throws: ``HTTPTransportError`` when no complete response arrived (connect failure or
    ///   timeout, request timeout, connection dropped) or the body was too large.
    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse
}
