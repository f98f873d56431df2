import Foundation

@testable import SesameClient

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Runs `body`, failing after `seconds` instead of hanging the suite.
func within<T: Sendable>(
    _ seconds: Double = 10, _ what: String = "an event", _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimedOut(what: what)
        }
        let value = try await group.next()!
        group.cancelAll()
        return value
    }
}

/// Reads the next element of a stream, with a time limit.
final class StreamReader<Element: Sendable>: @unchecked Sendable {
    private var iterator: AsyncThrowingStream<Element, any Error>.Iterator

    init(_ stream: AsyncThrowingStream<Element, any Error>) {
        iterator = stream.makeAsyncIterator()
    }

    func next(_ seconds: Double = 10) async throws -> Element? {
        try await within(seconds, "the next element") { [self] in
            try await self.iterator.next()
        }
    }
}

/// A started fake daemon and a client connected to it.
func makeDaemonAndClient(maximumRequestsInFlight: Int = 64) async throws -> (FakeDaemon, SesameClient) {
    let daemon = FakeDaemon()
    try await daemon.start()
    let client = SesameClient(
        socketPath: daemon.path, clientName: "tests", maximumRequestsInFlight: maximumRequestsInFlight)
    return (daemon, client)
}
