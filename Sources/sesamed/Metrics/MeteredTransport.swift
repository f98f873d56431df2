import SesameHTTP
import SesameService

/// The backend's transport, counting each request in ``DaemonMetrics`` by the operation it
/// serves (``BackendOperation/current``) and what came back. Adds nothing else: the request and
/// its answer pass through untouched, and nothing of either is recorded.
struct MeteredTransport: HTTPTransport {
    let wrapped: any HTTPTransport
    let metrics: DaemonMetrics

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let operation = BackendOperation.current
        do {
            let response = try await wrapped.send(request)
            metrics.recordBackendRequest(operation: operation, outcome: .init(status: response.status))
            return response
        } catch {
            metrics.recordBackendRequest(operation: operation, outcome: .transportError)
            throw error
        }
    }
}
