import HTTPTypes
import Hummingbird
import SesameCore
import SesameLocalAPI

// The bridge for routes not yet converted to typed operations (issue 33): the coordinator
// deletes this file with EmulatorRequest.swift and EmulatorReply.swift once no route uses them.

extension Router where Context == EmulatorRequestContext {
    /// Adds a route whose handler sees an ``EmulatorRequest`` (built from the request and the
    /// body ``EmulatorMiddleware`` read, path parameters percent-decoded) and answers an
    /// ``EmulatorReply``, or throws an `HTTPResponseError` in the port's error envelope.
    @discardableResult
    func route(
        _ path: RouterPath, _ method: HTTPRequest.Method,
        _ handler: @escaping @Sendable (EmulatorRequest) async throws -> EmulatorReply
    ) -> Self {
        on(path, method: method) { request, context -> Response in
            var emulatorRequest = EmulatorRequest(head: request)
            emulatorRequest.body = context.body
            for (name, value) in context.parameters {
                emulatorRequest.parameters[String(name)] = PercentEncoding.path(String(value))
            }
            return try await handler(emulatorRequest).response
        }
    }
}

/// Endpoints still written against ``EmulatorRequest``/``EmulatorReply``: the requirements of
/// ``EmulatorEndpoints`` in terms of their old forms.
protocol LegacyEmulatorEndpoints: EmulatorEndpoints {
    func callKey(for request: EmulatorRequest, route: String?) -> String?
    func extraCallKeys(for request: EmulatorRequest) -> [String]
    func errorReply(status: Int, message: String) -> EmulatorReply
    func unroutedReply(for request: EmulatorRequest) -> EmulatorReply
    func payloadTooLargeReply() -> EmulatorReply
    func gateway(_ request: EmulatorRequest) -> EmulatorRequest
}

extension LegacyEmulatorEndpoints {
    func callKey(for request: Request, route: String?) -> String? {
        callKey(for: EmulatorRequest(head: request), route: route)
    }

    func extraCallKeys(for request: Request) -> [String] { extraCallKeys(for: EmulatorRequest(head: request)) }

    func errorResponse(status: Int, message: String) -> Response {
        errorReply(status: status, message: message).response
    }

    func unroutedResponse(for request: Request) -> Response {
        unroutedReply(for: EmulatorRequest(head: request)).response
    }

    func payloadTooLargeResponse() -> Response { payloadTooLargeReply().response }

    func gateway(_ request: Request) -> Request {
        let head = EmulatorRequest(head: request)
        let forwarded = gateway(head)
        guard let authorization = forwarded.headers["authorization"], authorization != head.headers["authorization"]
        else { return request }
        var forwardedHead = request.head
        forwardedHead.headerFields[.authorization] = authorization
        return Request(head: forwardedHead, body: request.body)
    }
}
