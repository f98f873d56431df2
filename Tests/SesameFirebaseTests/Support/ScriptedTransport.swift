import NIOCore
import NIOHTTP1
import SesameCore
import SesameFirebase
import SesameHTTP

/// A ``HTTPTransport`` that records every request and answers from a script, in order.
/// When the script runs out it answers 599, which no test expects.
actor ScriptedTransport: HTTPTransport {
    enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(HTTPTransportError)

        /// A JSON answer.
        static func json(_ status: Int = 200, _ text: String, headers: HTTPHeaders = [:]) -> Reply {
            var headers = headers
            headers.add(name: "Content-Type", value: "application/json")
            return .response(HTTPResponse(status: status, headers: headers, text: text))
        }

        /// A Google REST error envelope with `message` (docs/firebase.md, "Endpoints").
        static func error(_ status: Int = 400, _ message: String) -> Reply {
            .json(status, #"{"error":{"code":\#(status),"message":"\#(message)","errors":[{"message":"\#(message)","reason":"invalid","domain":"global"}]}}"#)
        }
    }

    private(set) var requests: [HTTPRequest] = []
    private var replies: [Reply]

    init(_ replies: [Reply]) {
        self.replies = replies
    }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        requests.append(request)
        guard !replies.isEmpty else { return HTTPResponse(status: 599, text: "script exhausted") }
        switch replies.removeFirst() {
        case .response(let response): return response
        case .failure(let error): throw error
        }
    }

    /// The recorded requests rendered as snapshots.
    var snapshots: [String] {
        requests.map(RequestSnapshot.render)
    }
}
