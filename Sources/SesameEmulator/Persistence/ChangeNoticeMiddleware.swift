import Hummingbird
import SesameLocalAPI

/// Tells the data directory's saver that a request was handled (whatever it did: the saver
/// compares snapshots, so a read costs a snapshot and no write). Runs inside
/// ``EmulatorMiddleware``, so injected failures, which change nothing, send no notice.
struct ChangeNoticeMiddleware: RouterMiddleware {
    typealias Context = EmulatorRequestContext

    let noteChange: @Sendable () -> Void

    func handle(
        _ request: Request, context: EmulatorRequestContext,
        next: (Request, EmulatorRequestContext) async throws -> Response
    ) async throws -> Response {
        defer { noteChange() }
        return try await next(request, context)
    }
}
