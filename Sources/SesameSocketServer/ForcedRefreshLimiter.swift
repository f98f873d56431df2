import Foundation

/// Forced refreshes per uid: one per `interval`. A reader's `getIdToken` with `forceRefresh`
/// less than `interval` after its uid's previous forced one is answered as if not forced (the
/// held token while it is still valid for the request's `minValidity`), so no peer can make
/// the daemon refresh, and write the keyring, in a loop. A pure state machine.
struct ForcedRefreshLimiter: Sendable {
    let interval: TimeInterval
    private var last: [UInt32: Date] = [:]

    init(interval: TimeInterval = 10) {
        self.interval = interval
    }

    /// True when `uid` may force a refresh at `now` (and then it counts as done).
    mutating func allow(_ uid: UInt32, at now: Date) -> Bool {
        if let previous = last[uid], now >= previous, now.timeIntervalSince(previous) < interval { return false }
        if last.count >= 4096 { last = last.filter { now.timeIntervalSince($0.value) < interval } }
        last[uid] = now
        return true
    }
}
