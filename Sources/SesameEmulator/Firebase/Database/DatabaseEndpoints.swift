import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import SesameLocalAPI

/// The Realtime Database REST subset (reference §9): `GET`, `PUT`, `PATCH`, `POST`, `DELETE` on
/// `/<path>.json`, namespaces by `?ns=`, ETags and `if-match`, `print=silent`, `shallow=true`,
/// queries (``DatabaseQuery``), streaming `GET`s and the rules at `/.settings/rules.json`.
/// Uploaded security rules are enforced (``SecurityRules``) for the identity the request
/// names (``DatabaseIdentity``); without uploaded rules every request is allowed.
///
/// Data paths have any depth, so the port has no routes of its own: what the router does not
/// match (everything but `/sesame/v1/faults`) is dispatched here by method through
/// ``operations``.
struct DatabaseEndpoints: EmulatorEndpoints {
    let state: DatabaseState
    let defaultNamespace: String
    /// The port's clock skew (fault `clockSkewSeconds`), read by ``state``'s clock.
    let clockSkew: ClockSkew
    /// How often a streaming `GET` sends `keep-alive`.
    var keepAliveInterval: Duration = .seconds(30)

    /// The methods the database answers (others are 405 and not counted).
    static let methods: Set<HTTPRequest.Method> = [.get, .head, .put, .patch, .post, .delete]

    func addRoutes(to router: Router<EmulatorRequestContext>) {}

    func callKey(for request: Request, route: String?) -> String? {
        Self.methods.contains(request.method) ? DatabaseRequest.effectiveMethod(request) : nil
    }

    func errorResponse(status: Int, message: String) -> Response {
        DatabaseError(httpStatus: status, message: message).response
    }

    func payloadTooLargeResponse() -> Response { DatabaseError.payloadTooLarge.response }

    func unroutedResponse(for request: Request) -> Response { DatabaseError.methodNotAllowed.response }

    func faultSettingsChanged(_ settings: FaultSettings) async { clockSkew.set(seconds: settings.clockSkewSeconds) }

    /// Every request but the fault extension's: a streaming `GET` (`Accept: text/event-stream`),
    /// the readiness probe (`GET /`), the rules, or a data operation.
    func respondUnrouted(to request: Request, context: EmulatorRequestContext) async throws -> Response {
        let call = DatabaseRequest(
            request, body: context.body, defaultNamespace: defaultNamespace, now: state.clock.milliseconds() / 1000)
        let streaming = request.method == .get && request.header("accept")?.contains("text/event-stream") == true
        if !streaming && call.urlPath == "/" && call.method == "GET" && call.query.isEmpty {
            return .json(["databaseEmulator": ["ready": true]] as JSONValue)
        }
        let target: DatabaseOperation.Target =
            streaming ? .stream : call.urlPath.hasPrefix("/.settings/rules") ? .rules : .data
        guard let operation = Self.operations.first(where: { $0.target == target && $0.method == call.method })
        else { throw DatabaseError.methodNotAllowed }
        return try await operation.perform(self)(call)
    }

    /// Streaming `GET` (`Accept: text/event-stream`): a `put` of the location's value at `/`, then a
    /// `put` or `patch` for each write that changes it (paths relative to the location), and a
    /// `keep-alive` after ``keepAliveInterval`` of silence. The stream ends when the client goes,
    /// when it stops reading (``DatabaseListeners``), and when the emulator stops.
    func stream(_ call: DatabaseRequest) async throws(DatabaseError) -> Response {
        let path = try call.path()
        if try DatabaseQuery(parameters: call.query) != nil {
            throw .badRequest("Queries on streaming GETs are not supported by sesame-emulator.")
        }
        guard let registration = try await state.listen(namespace: call.namespace, path: path, as: call.identity)
        else {
            throw DatabaseError(
                httpStatus: 503,
                message: "Too many streaming listeners (at most \(DatabaseListeners.maximumCount) at once).")
        }
        let state = state
        let interval = keepAliveInterval
        let fields: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]
        let body = ResponseBody { writer in
            let keepAlive = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    registration.continuation.yield(.keepAlive)
                }
            }
            defer { keepAlive.cancel() }
            do {
                try await withGracefulShutdownHandler {
                    for await event in registration.events {
                        try await writer.write(ByteBuffer(string: event.text))
                    }
                } onGracefulShutdown: {
                    registration.continuation.finish()
                }
            } catch {
                await state.stopListening(registration.id)
                throw error
            }
            await state.stopListening(registration.id)
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: fields, body: body)
    }
}
