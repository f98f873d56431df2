import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import SesameLocalAPI

/// Streaming `GET` (`Accept: text/event-stream`): a `put` of the location's value at `/`, then a
/// `put` or `patch` for each write that changes it (paths relative to the location), and a
/// `keep-alive` after ``keepAliveInterval`` of silence. The stream ends when the client goes,
/// when it stops reading (``DatabaseListeners``), and when the emulator stops.
extension DatabaseEndpoints {
    func stream(_ call: DatabaseRequest) async throws(DatabaseError) -> Response {
        let path = try call.path()
        if try DatabaseQuery(parameters: call.query) != nil {
            throw DatabaseError(
                httpStatus: 400, message: "Queries on streaming GETs are not supported by sesame-emulator.")
        }
        guard let registration = try await state.listen(namespace: call.namespace, path: path, as: call.identity)
        else {
            throw DatabaseError(
                httpStatus: 503,
                message: "Too many streaming listeners (at most \(DatabaseListeners.maximumCount) at once).")
        }
        let state = state
        let interval = keepAliveInterval
        var fields = HTTPFields()
        fields[.contentType] = "text/event-stream"
        fields[.cacheControl] = "no-cache"
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
