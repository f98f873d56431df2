import NIOHTTP1
import SesameHTTP

/// An ``HTTPTransport`` that records every request and answers from a script, in order, for
/// the adapters' request and error-mapping tests. When the script runs out it answers 599,
/// which no test expects. Backend-shaped answers (error envelopes) are extensions of ``Reply``
/// in each adapter's test target.
public actor ScriptedTransport: HTTPTransport {
    public enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(HTTPTransportError)

        /// A JSON answer.
        public static func json(_ status: Int = 200, _ text: String, headers: HTTPHeaders = [:]) -> Reply {
            var headers = headers
            headers.add(name: "Content-Type", value: "application/json")
            return .response(HTTPResponse(status: status, headers: headers, text: text))
        }
    }

    /// Every request sent, in order.
    public private(set) var requests: [HTTPRequest] = []
    private var replies: [Reply]

    public init(_ replies: [Reply]) {
        self.replies = replies
    }

    public func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        requests.append(request)
        guard !replies.isEmpty else { return HTTPResponse(status: 599, text: "script exhausted") }
        switch replies.removeFirst() {
        case .response(let response): return response
        case .failure(let error): throw error
        }
    }
}
