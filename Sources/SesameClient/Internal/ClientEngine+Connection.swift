import Foundation
import NIOCore
import NIOPosix
import SesameCore
import SesameLocalAPI

/// Connecting, losing the connection and reconnecting with backoff.
extension ClientEngine {
    // MARK: Connecting

    /// Connects unless connected; concurrent callers share one attempt (``Link/attempts``).
    /// - Throws: ``SesameClientError/daemonUnreachable(socketPath:detail:)``,
    ///   ``SesameClientError/permissionDenied(socketPath:group:)`` or
    ///   ``SesameClientError/connectionClosed``.
    func ensureConnected() async throws(SesameClientError) {
        if isShutDown { throw .connectionClosed }
        if link.connection != nil { return }
        let path = socketPath
        let group = group
        let opened = try await link.attempts.run { () async throws(SesameClientError) -> LineConnection in
            do {
                return try await LineConnection.connect(path: path, group: group)
            } catch {
                throw ClientEngine.connectError(error, socketPath: path)
            }
        }
        install(opened)
        if link.connection == nil { throw .connectionClosed }
    }

    /// The client error for a failed connect: ``SesameClientError/permissionDenied(socketPath:group:)``
    /// for EACCES (the socket is there but this process may not open it), else
    /// ``SesameClientError/daemonUnreachable(socketPath:detail:)``.
    static func connectError(_ error: any Error, socketPath: String) -> SesameClientError {
        if let io = error as? IOError, io.errnoCode == EACCES || io.errnoCode == EPERM {
            return .permissionDenied(socketPath: socketPath, group: SocketGroup.grantingGroup(of: socketPath))
        }
        return .daemonUnreachable(socketPath: socketPath, detail: describe(error))
    }

    /// A connect error in a few words (errno's text, not NIO's type name).
    static func describe(_ error: any Error) -> String {
        if let io = error as? IOError {
            return String(cString: strerror(io.errnoCode)).lowercased()
        }
        return "\(error)"
    }

    /// Adopts a connection the shared attempt opened (once, whichever caller comes first),
    /// reads its lines and says `hello`.
    func install(_ opened: LineConnection) {
        if isShutDown {
            opened.close()
            return
        }
        guard let generation = link.adopt(opened) else { return }
        Task {
            for await event in opened.events {
                self.handle(event, generation: generation)
            }
        }
        sendInternal(.hello, ["client": .string(clientName)], as: .hello)
    }

    /// Forgets the connection: fails its callers with `error`, tells the raw consumers, and
    /// reconnects when a stream still needs the daemon.
    func dropConnection(_ error: SesameClientError) {
        guard let old = link.drop() else { return }
        old.close()
        let callers = calls.removeAll()
        subscription.connectionLost()
        for caller in callers { caller.resume(throwing: error) }
        publishLocal(.connectionLost(error))
        startReconnecting(afterDelay: true)
    }

    /// Keeps trying to connect, with backoff, while a stream needs the daemon.
    func startReconnecting(afterDelay: Bool) {
        guard link.reconnecting == nil, !isShutDown, !consumers.isEmpty else { return }
        link.reconnecting = Task {
            var delay = afterDelay
            while !Task.isCancelled {
                if delay {
                    let pause = self.link.backoff.next()
                    try? await Task.sleep(for: pause)
                    if Task.isCancelled { break }
                }
                delay = true
                if await self.reconnectAttempt() { break }
            }
        }
    }

    /// One attempt; true when done (connected, or no longer needed).
    func reconnectAttempt() async -> Bool {
        guard !isShutDown, !consumers.isEmpty else {
            link.reconnecting = nil
            return true
        }
        do {
            try await ensureConnected()
            link.reconnecting = nil
            return true
        } catch {
            return false
        }
    }

    /// Closes the connection and finishes every stream.
    func shutDown() {
        guard !isShutDown else { return }
        dropConnection(.connectionClosed)
        isShutDown = true
        link.stopReconnecting()
        consumers.finish(throwing: nil)
    }
}
