import Foundation
import NIOCore
import NIOPosix
import SesameLocalAPI

/// A connection to `sesamed`, the daemon that owns this machine's account session.
///
/// Every call is `async` and may be made from any task; requests are pipelined on one Unix
/// socket connection and answered by id. The streams (``stateChanges``, ``idTokenChanges``,
/// ``notifications``, ``merges``) share one subscription, yield the current value first and
/// survive daemon restarts: the client reconnects by itself (50 ms doubling to 2 s, with
/// jitter), subscribes again and yields the fresh state. Within one daemon instance no stream
/// yields a state it has already yielded, and a gap in `sequence` is repaired with `getState`.
///
/// ```swift
/// let sesame = SesameClient()
/// for try await state in sesame.stateChanges {
///     print(state.status, state.user?.uid ?? "-")
/// }
/// ```
///
/// Calls throw ``SesameClientError`` (or `CancellationError` when their task is cancelled:
/// the daemon's answer is then dropped). Closing the client, or dropping its last reference,
/// closes the connection and finishes the streams.
public final class SesameClient: Sendable {
    /// The socket this client talks to.
    public let socketPath: String
    let engine: ClientEngine

    /// Creates a client; it connects on first use.
    /// - Parameters:
    ///   - socketPath: the daemon's socket; nil resolves it as ``SesameSocketPath/resolve(environment:fileExists:)``
    ///     does from this process's environment.
    ///   - clientName: sent in `hello`, for the daemon's log; defaults to the program's name.
    public convenience init(socketPath: String? = nil, clientName: String? = nil) {
        self.init(
            socketPath: socketPath, clientName: clientName,
            maximumRequestsInFlight: ProtocolLimits.maximumRequestsInFlight)
    }

    init(socketPath: String?, clientName: String?, maximumRequestsInFlight: Int) {
        let path =
            socketPath
            ?? SesameSocketPath.resolve(
                environment: ProcessInfo.processInfo.environment,
                fileExists: { FileManager.default.fileExists(atPath: $0) })
        self.socketPath = path
        self.engine = ClientEngine(
            socketPath: path, clientName: clientName ?? ProcessInfo.processInfo.processName,
            group: MultiThreadedEventLoopGroup.singleton, maximumRequestsInFlight: maximumRequestsInFlight)
    }

    deinit {
        let engine = engine
        Task { await engine.shutDown() }
    }

    /// Closes the connection and finishes every stream; later calls throw
    /// ``SesameClientError/connectionClosed``.
    public func close() async {
        await engine.shutDown()
    }

    /// Sends `method` and returns its result.
    func call(_ method: LocalAPIMethod, _ params: [String: JSONValue] = [:]) async throws -> JSONValue {
        try await engine.call(method.rawValue, params)
    }
}
