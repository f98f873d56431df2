import SesameCore

/// Sends one HTTP request and returns the complete response.
///
/// The seam between the Firebase adapters and the network: ``AsyncHTTPClientTransport`` in
/// production, a recording fake in tests. A transport sends each request exactly once and
/// never retries; whether to try again is the caller's decision (see `docs/firebase.md`).
public protocol FirebaseTransport: Sendable {
    /// Sends `request`.
    /// - Returns: the response, whatever its status.
    /// - Throws: ``RemoteAuthError/transport(_:)`` when no complete response arrived (connect
    ///   failure or timeout, request timeout, connection dropped), or
    ///   ``RemoteAuthError/malformedResponse(_:)`` when the body was too large.
    func send(_ request: FirebaseHTTPRequest) async throws(RemoteAuthError) -> FirebaseHTTPResponse
}
