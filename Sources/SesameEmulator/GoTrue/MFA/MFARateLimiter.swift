/// GoTrue's MFA rate limit (`internal/api/apilimiter`): `POST /factors/{id}/challenge` and `…/verify` each have a
/// token bucket per client key, refilled at `GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY` per minute (default 15)
/// with a burst of 30; a key unused for a minute starts full again. GoTrue applies it only when it knows the
/// client's address (`GOTRUE_RATE_LIMIT_HEADER`), so the emulator does too
/// (``SupabaseEmulatorConfiguration/rateLimitHeader``). Over the limit: 429 `over_request_rate_limit`, "Request
/// rate limit reached". A pure machine: the caller passes the time (milliseconds).
struct MFARateLimiter: Sendable {
    enum Endpoint: Hashable, Sendable {
        case challenge, verify
    }

    static let burst = 30.0
    /// How long an unused key is remembered (GoTrue's `DefaultExpirationTTL` of a minute).
    static let keyLifetime = 60_000

    /// Requests per minute refilled.
    let perMinute: Double
    private var buckets: [Bucket.Key: Bucket] = [:]

    struct Bucket: Sendable {
        struct Key: Hashable, Sendable {
            var endpoint: Endpoint
            var client: String
        }
        var tokens: Double
        var updatedAt: Int
    }

    init(perMinute: Double) {
        self.perMinute = perMinute
    }

    /// Takes one request of `client` at `endpoint`; whether it is within the limit.
    mutating func allow(_ endpoint: Endpoint, client: String, now: Int) -> Bool {
        let key = Bucket.Key(endpoint: endpoint, client: client)
        var bucket = buckets[key] ?? Bucket(tokens: Self.burst, updatedAt: now)
        let elapsed = max(0, now - bucket.updatedAt)
        bucket.tokens =
            elapsed >= Self.keyLifetime
            ? Self.burst : min(Self.burst, bucket.tokens + Double(elapsed) / 60_000 * perMinute)
        bucket.updatedAt = now
        let allowed = bucket.tokens >= 1
        if allowed { bucket.tokens -= 1 }
        buckets[key] = bucket
        if buckets.count > 10_000 { buckets = buckets.filter { now - $0.value.updatedAt < Self.keyLifetime } }
        return allowed
    }
}
