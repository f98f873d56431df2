import SesameLocalAPI

/// What one connection is doing, as a value: how many requests are in flight, whether reading
/// is paused, whether a burst holds the outbox, how many answer bytes it holds, how long it has
/// been idle, and whether it is closing. ``ConnectionHandler`` feeds it what happened and does
/// what it answers; the machine does no I/O, so its table test covers every state.
///
/// States, by the flags: **reading** (nothing paused), **bursting** (the outbox is held until
/// the loop's flush), **paused** (at the in-flight cap with lines waiting, or the socket does
/// not take answers), **closing** (nothing more is handled).
struct ConnectionMachine: Equatable {
    private(set) var inFlight = 0
    private(set) var closing = false
    private(set) var readingPaused = false
    /// The outbox is held and the loop's flush (or the end of the read) will release it.
    private(set) var bursting = false
    /// The burst began in a read of a lone client and is written when that read ends, not by
    /// the loop's flush (``LoopFlush/isAlone(_:)``).
    private(set) var releaseAtReadEnd = false
    /// Answer bytes in the held outbox, as the last answer queued left it.
    private(set) var queuedAnswers = 0
    /// Idle ticks since the last read.
    private(set) var idleTicks = 0

    let maximumInFlight: Int
    let maximumQueuedAnswerBytes: Int

    init(maximumInFlight: Int, maximumQueuedAnswerBytes: Int) {
        self.maximumInFlight = maximumInFlight
        self.maximumQueuedAnswerBytes = maximumQueuedAnswerBytes
    }

    /// What to do with bytes just read.
    enum AfterRead: Equatable {
        /// Closing: drop them.
        case drop
        /// Paused: keep them unhandled until reading resumes.
        case keep
        /// Handle the lines now.
        case handle
    }

    mutating func read() -> AfterRead {
        guard !closing else { return .drop }
        idleTicks = 0
        return readingPaused ? .keep : .handle
    }

    /// Starts a burst; true when the outbox must be held now (it was not yet). `atReadEnd`: the
    /// burst is written when the current read ends (``readEnded()``), not by the loop's flush.
    mutating func beginBurst(atReadEnd: Bool = false) -> Bool {
        guard !bursting else { return false }
        bursting = true
        releaseAtReadEnd = atReadEnd
        return true
    }

    /// The read ended: true when its burst is to be written now.
    func readEnded() -> Bool { bursting && releaseAtReadEnd }

    /// The held outbox was written.
    mutating func released() {
        bursting = false
        releaseAtReadEnd = false
        queuedAnswers = 0
    }

    /// Before the next line of a burst.
    enum NextLine: Equatable {
        /// Handle it.
        case handle
        /// Hand the held answers to the socket first, then ask again (with the new writability).
        case flushFirst
        /// Handle no more lines now.
        case stop
    }

    mutating func nextLine(writable: Bool) -> NextLine {
        guard !closing, writable, inFlight < maximumInFlight else { return .stop }
        guard queuedAnswers < maximumQueuedAnswerBytes else {
            queuedAnswers = 0
            return .flushFirst
        }
        return .handle
    }

    /// An answer was queued; the held outbox now has `bytes`.
    mutating func answered(holding bytes: Int) { queuedAnswers = bytes }

    /// A request went to the session service.
    mutating func started() { inFlight += 1 }

    /// A request came back from the service; false when the connection is closing and the
    /// answer is dropped.
    mutating func finished() -> Bool {
        inFlight -= 1
        return !closing
    }

    /// After a burst's lines: whether reading must be paused or resumed.
    enum Reading: Equatable {
        case unchanged
        case pause
        case resume
    }

    mutating func settle(linesWait: Bool, writable: Bool) -> Reading {
        let shouldPause = (linesWait && inFlight >= maximumInFlight) || !writable
        guard shouldPause != readingPaused else { return .unchanged }
        readingPaused = shouldPause
        return shouldPause ? .pause : .resume
    }

    /// An idle tick: true when the connection should be closed now (idle for `ticksToClose`
    /// ticks, nothing in flight, not subscribed).
    mutating func idleTick(ticksToClose: Int, subscribed: Bool) -> Bool {
        idleTicks += 1
        return idleTicks >= ticksToClose && inFlight == 0 && !closing && !subscribed
    }

    /// Closing, for whatever reason: nothing more is handled.
    mutating func close() { closing = true }
}
