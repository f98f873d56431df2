import Dispatch
import Foundation
import Synchronization

/// SIGINT (Ctrl-C) and SIGTERM while a sign-in flow runs: the command cancels the flow at
/// sesamed before it exits, instead of dying with the flow left open.
final class SignalCancellation: Sendable {
    /// The signal that arrived.
    let signals: AsyncStream<Int32>
    private let numbers: [Int32]
    private let sources: Mutex<[any DispatchSourceSignal]>

    init(_ numbers: [Int32] = [SIGINT, SIGTERM]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(1))
        signals = stream
        self.numbers = numbers
        let sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        self.sources = Mutex(sources)
    }

    /// The first signal, or nil when the task is cancelled.
    func first() async -> Int32? {
        for await number in signals { return number }
        return nil
    }

    /// Stops watching; the signals' default actions are restored.
    func stop() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
            sources = []
        }
        for number in numbers { signal(number, SIG_DFL) }
    }
}
