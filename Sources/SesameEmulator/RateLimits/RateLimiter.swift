import Hummingbird

/// The per-address token buckets of one port, and how many requests each limit let through or
/// refused (`GET /sesame/v1/rate-limits`).
///
/// A bucket starts full (`burst`), loses one token per request and regains tokens at the
/// limit's rate; a request finding less than one token is refused. Buckets idle long enough to
/// be full again are forgotten, so a fleet of addresses costs memory only while it is busy.
actor RateLimiter {
    private struct Bucket {
        var tokens: Double
        var updatedMs: Int
    }

    private let limits: [String: RateLimit]
    private let clock: EmulatorClock
    /// Whether any limit applies (with `--rate-limits off` none does, and no request waits here).
    nonisolated let active: Bool
    private var buckets: [String: [String: Bucket]] = [:]
    private var counts: [String: (admitted: Int, refused: Int)] = [:]
    private var sweepAtMs = 0

    init(limits: [String: RateLimit], clock: EmulatorClock) {
        self.limits = limits
        self.clock = clock
        self.active = !limits.isEmpty
    }

    /// Takes one token of `name`'s bucket for `address`.
    /// - Returns: false when the bucket is empty (the request is refused); true, too, for a
    ///   name that has no limit.
    func admit(_ name: String, address: String) -> Bool {
        guard let limit = limits[name] else { return true }
        let now = clock.milliseconds()
        sweep(now: now)
        var bucket = buckets[name]?[address] ?? Bucket(tokens: Double(limit.burst), updatedMs: now)
        let elapsed = Double(max(0, now - bucket.updatedMs)) / 1000
        bucket.tokens = min(Double(limit.burst), bucket.tokens + elapsed * limit.refillPerSecond)
        bucket.updatedMs = now
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 }
        buckets[name, default: [:]][address] = bucket
        if admitted { counts[name, default: (0, 0)].admitted += 1 } else { counts[name, default: (0, 0)].refused += 1 }
        return admitted
    }

    /// Every limit of the port with its counts and the number of addresses it holds.
    func report() -> RateLimitReport {
        RateLimitReport(
            limits: limits.keys.sorted().map { name in
                let limit = limits[name]!
                let count = counts[name] ?? (0, 0)
                return RateLimitReport.Entry(
                    name: name, count: limit.count, seconds: limit.seconds, burst: limit.burst,
                    admitted: count.admitted, refused: count.refused, addresses: buckets[name]?.count ?? 0)
            })
    }

    /// Forgets the buckets that are full again, once a minute at most.
    private func sweep(now: Int) {
        guard now >= sweepAtMs else { return }
        sweepAtMs = now + 60_000
        for (name, byAddress) in buckets {
            guard let limit = limits[name] else { continue }
            let refillMs = Int(Double(limit.burst) / limit.refillPerSecond * 1000)
            buckets[name] = byAddress.filter { now - $0.value.updatedMs < refillMs }
        }
    }
}

/// `GET /sesame/v1/rate-limits`: the port's limits, what each let through and refused.
struct RateLimitReport: ResponseEncodable, Codable, Sendable, Equatable {
    static let endpoint = "/sesame/v1/rate-limits"

    struct Entry: Codable, Sendable, Equatable {
        var name: String
        var count: Double
        var seconds: Double
        var burst: Int
        var admitted: Int
        var refused: Int
        /// Addresses with a bucket that is not full.
        var addresses: Int
    }

    var limits: [Entry]
}
