import Foundation
import NIOCore
import NIOPosix
import SesameCore
import SesameLocalAPI

/// Connecting, losing the connection and reconnecting with backoff.
extension ClientEngine {
    // MARK: Connecting

    /// Connects unless connected; concurrent callers share one attempt.
    /// - Throws: ``SesameClientError/daemonUnreachable(socketPath:detail:)``.
    func ensureConnected() async throws(SesameClientError) {
        if isShutDown { throw .connectionClosed }
        if connection != nil { return }
        let attempt: Task<LineConnection, any Error>
        if let connecting {
            attempt = connecting
        } else {
            let path = socketPath
            let group = group
            attempt = Task { try await LineConnection.connect(path: path, group: group) }
            connecting = attempt
        }
        do {
            let newConnection = try await attempt.value
            if connecting == attempt {
                connecting = nil
                install(newConnection)
            }
            if connection == nil { throw SesameClientError.connectionClosed }
        } catch let error as SesameClientError {
            throw error
        } catch {
            if connecting == attempt { connecting = nil }
            throw Self.connectError(error, socketPath: socketPath)
        }
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

    func install(_ newConnection: LineConnection) {
        if isShutDown {
            newConnection.close()
            return
        }
        generation += 1
        let current = generation
        connection = newConnection
        Task {
            for await event in newConnection.events {
                self.handle(event, generation: current)
            }
        }
        sendInternal(.hello, ["client": .string(clientName)], as: .hello)
    }

    /// Forgets the connection: fails its callers with `error`, tells the raw consumers, and
    /// reconnects when a stream still needs the daemon.
    func dropConnection(_ error: SesameClientError) {
        guard let old = connection else { return }
        old.close()
        connection = nil
        generation += 1
        let callers = pending
        pending = [:]
        inFlight = []
        queued = []
        subscription = nil
        subscribing = nil
        isGreeted = false
        tracker.connectionLost()
        for case .call(let continuation) in callers.values {
            continuation.resume(throwing: error)
        }
        publishLocal(.connectionLost(error))
        startReconnecting(afterDelay: true)
    }

    /// Keeps trying to connect, with backoff, while a stream needs the daemon.
    func startReconnecting(afterDelay: Bool) {
        guard reconnectTask == nil, !isShutDown, needsSubscription else { return }
        reconnectTask = Task {
            var delay = afterDelay
            while !Task.isCancelled {
                if delay {
                    let pause = self.backoff.next()
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
        guard !isShutDown, needsSubscription else {
            reconnectTask = nil
            return true
        }
        do {
            try await ensureConnected()
            reconnectTask = nil
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
        reconnectTask?.cancel()
        reconnectTask = nil
        connecting?.cancel()
        for consumer in consumers.values { consumer.finish(throwing: nil) }
        consumers = [:]
    }
}
