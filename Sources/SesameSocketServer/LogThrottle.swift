import Foundation
import Logging
import NIOConcurrencyHelpers

/// Caps the log lines any peer can cause: at most ``linesPerWindow`` lines of one kind per
/// ``window``; the rest are counted, and the next line of that kind logged after the window
/// says how many were suppressed. A pure state machine: the caller passes the time.
struct LogThrottle {
    /// What a peer made the daemon say.
    enum Kind: Hashable, CaseIterable {
        case tooManyConnections
        case tooManyForUid
        case lineTooLarge
        case slowSubscriber
        case connectionError
        case acceptFailed
    }

    /// What to do with one line.
    enum Decision: Equatable {
        /// Log it; `suppressed` similar lines were dropped since the last one logged.
        case log(suppressed: Int)
        case suppress
    }

    let linesPerWindow: Int
    let window: TimeInterval
    private var counters: [Kind: Counter] = [:]

    private struct Counter {
        var windowStart: Date
        var logged = 0
        var suppressed = 0
    }

    init(linesPerWindow: Int = 10, window: TimeInterval = 60) {
        self.linesPerWindow = max(1, linesPerWindow)
        self.window = window
    }

    mutating func decide(_ kind: Kind, at now: Date) -> Decision {
        var counter = counters[kind] ?? Counter(windowStart: now)
        if now.timeIntervalSince(counter.windowStart) >= window || now < counter.windowStart {
            counter.windowStart = now
            counter.logged = 0
        }
        let decision: Decision
        if counter.logged < linesPerWindow {
            counter.logged += 1
            decision = .log(suppressed: counter.suppressed)
            counter.suppressed = 0
        } else {
            counter.suppressed += 1
            decision = .suppress
        }
        counters[kind] = counter
        return decision
    }
}

/// The server's ``LogThrottle``, shared by every connection (one lock, taken only when a peer
/// is refused or misbehaves), with the clock it is given.
final class PeerLog: Sendable {
    private let throttle: NIOLockedValueBox<LogThrottle>
    private let now: @Sendable () -> Date
    private let logger: Logger

    init(logger: Logger, throttle: LogThrottle = LogThrottle(), now: @escaping @Sendable () -> Date = Date.init) {
        self.logger = logger
        self.throttle = NIOLockedValueBox(throttle)
        self.now = now
    }

    /// Logs `message` at `level` unless too many of `kind` were logged lately.
    func log(
        _ kind: LogThrottle.Kind, _ level: Logger.Level, _ message: @autoclosure () -> Logger.Message,
        metadata: Logger.Metadata = [:]
    ) {
        let time = now()
        guard case .log(let suppressed) = throttle.withLockedValue({ $0.decide(kind, at: time) }) else { return }
        var metadata = metadata
        if suppressed > 0 { metadata["suppressed"] = "\(suppressed) similar messages" }
        logger.log(level: level, message(), metadata: metadata)
    }
}
