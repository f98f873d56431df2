import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// One route of a surface's operation table (the fake identity provider, the Auth port's
/// `/emulator/…` routes, faults): its method and path, and what it does with the surface's
/// state and the request. It answers a typed response (``JSONValue``, an `Encodable` response
/// type, a page) or throws the surface's `HTTPResponseError`.
struct EmulatorOperation<State: Sendable>: Sendable {
    typealias Perform = @Sendable (State, Request, EmulatorRequestContext) async throws -> any ResponseGenerator

    let method: HTTPRequest.Method
    let path: String
    let perform: Perform

    init(_ method: HTTPRequest.Method, _ path: String, _ perform: @escaping Perform) {
        self.method = method
        self.path = path
        self.perform = perform
    }
}

extension RouteCollection where Context == EmulatorRequestContext {
    /// A collection of one route per operation, each given `state`.
    static func of<State>(_ operations: [EmulatorOperation<State>], state: State) -> RouteCollection {
        let routes = RouteCollection(context: EmulatorRequestContext.self)
        for operation in operations {
            routes.on(RouterPath(operation.path), method: operation.method) { request, context in
                try await operation.perform(state, request, context).response(from: request, context: context)
            }
        }
        return routes
    }
}
