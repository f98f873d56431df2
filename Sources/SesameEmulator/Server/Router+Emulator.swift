import HTTPTypes
import Hummingbird
import SesameCore
import SesameLocalAPI

extension Router where Context == EmulatorRequestContext {
    /// Adds a route whose handler sees the whole request (body already capped and read by
    /// ``EmulatorMiddleware``, path parameters percent-decoded) and answers an ``EmulatorReply``,
    /// or throws an `HTTPResponseError` in the port's error envelope (``IdentityToolkitError``,
    /// ``GoTrueError``, ``PostgRESTError``, ``DatabaseError``), which the middleware renders.
    @discardableResult
    func route(
        _ path: RouterPath, _ method: HTTPRequest.Method,
        _ handler: @escaping @Sendable (EmulatorRequest) async throws -> EmulatorReply
    ) -> Self {
        on(path, method: method) { request, context -> Response in
            var emulatorRequest: EmulatorRequest
            if let head = context.head {
                emulatorRequest = head
            } else {
                emulatorRequest = try await EmulatorRequest.read(request)
            }
            for (name, value) in context.parameters {
                emulatorRequest.parameters[String(name)] = PercentEncoding.path(String(value))
            }
            return try await handler(emulatorRequest).response
        }
    }
}
