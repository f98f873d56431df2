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
    /// How long each call waits for the daemon's answer before it throws
    /// ``SesameClientError/noAnswer(socketPath:timeout:)``; nil waits as long as it takes.
    public let requestTimeout: Duration?
    let engine: ClientEngine

    /// The default ``requestTimeout``: longer than any flow of a working daemon (each backend
    /// call of sesamed is bounded at 10 s), short enough that a hung daemon does not hang
    /// its clients.
    public static let defaultRequestTimeout: Duration = .seconds(60)

    /// Creates a client; it connects on first use.
    /// - Parameters:
    ///   - socketPath: the daemon's socket; nil resolves it as ``SesameSocketPath/resolve(environment:fileExists:)``
    ///     does from this process's environment.
    ///   - clientName: sent in `hello`, for the daemon's log; defaults to the program's name.
    ///   - requestTimeout: how long each call waits for its answer (connecting included);
    ///     nil for no limit. The streams have no limit: they wait out outages.
    public convenience init(
        socketPath: String? = nil, clientName: String? = nil,
        requestTimeout: Duration? = SesameClient.defaultRequestTimeout
    ) {
        self.init(
            socketPath: socketPath, clientName: clientName, requestTimeout: requestTimeout,
            maximumRequestsInFlight: ProtocolLimits.maximumRequestsInFlight)
    }

    init(
        socketPath: String?, clientName: String?, requestTimeout: Duration? = SesameClient.defaultRequestTimeout,
        maximumRequestsInFlight: Int
    ) {
        let path =
            socketPath
            ?? SesameSocketPath.resolve(
                environment: ProcessInfo.processInfo.environment,
                fileExists: { FileManager.default.fileExists(atPath: $0) })
        self.socketPath = path
        self.requestTimeout = requestTimeout
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

    /// Sends `method` and returns its result, waiting at most ``requestTimeout``, plus
    /// `waitingAtLeast` for a call the daemon itself holds that long (`awaitSignIn`).
    func call(
        _ method: LocalAPIMethod, _ params: [String: JSONValue] = [:], waitingAtLeast held: Duration = .zero
    ) async throws -> JSONValue {
        let engine = engine
        guard let limit = requestTimeout else { return try await engine.call(method.rawValue, params) }
        let timeout = limit + held
        let expired = SesameClientError.noAnswer(socketPath: socketPath, timeout: timeout)
        // The first child to finish wins; cancelling the other drops the late answer (the
        // engine forgets the request id) or stops the timer.
        return try await withThrowingTaskGroup(of: JSONValue.self) { group in
            group.addTask { try await engine.call(method.rawValue, params) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw expired
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw expired }
            return first
        }
    }
}
