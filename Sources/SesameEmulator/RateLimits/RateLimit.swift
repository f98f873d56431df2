/// One per-address limit as a token bucket: `count` requests per `seconds`, refilled evenly,
/// holding at most `burst` (GoTrue's tollbooth limiters, Firebase's hourly account creation).
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    public var count: Double
    public var seconds: Double
    public var burst: Int

    public init(count: Double, seconds: Double, burst: Int) {
        self.count = count
        self.seconds = seconds
        self.burst = burst
    }

    /// Requests added back per second.
    var refillPerSecond: Double { count / seconds }

    public var description: String { "\(Self.format(count))/\(Self.format(seconds)):\(burst)" }

    /// The limits the services document, by the name `--rate-limit` uses.
    ///
    /// Firebase (firebase.google.com/docs/auth/limits): new account creation, 100 accounts an
    /// hour for each IP address. GoTrue (internal/api/apilimiter): anonymous sign-ins 30 an hour
    /// (`GOTRUE_RATE_LIMIT_ANONYMOUS_USERS`, burst 30); token refresh 150 per 5 minutes, burst 30
    /// (`GOTRUE_RATE_LIMIT_TOKEN_REFRESH`); verify 30 per 5 minutes, burst 30; sign-ups with an
    /// address, OTP, recover, resend, magic link and user updates 30 per 5 minutes, burst 30
    /// (`GOTRUE_RATE_LIMIT_OTP`).
    public static let documented: [String: RateLimit] = [
        "account_creation": RateLimit(count: 100, seconds: 3600, burst: 100),
        "anonymous_users": RateLimit(count: 30, seconds: 3600, burst: 30),
        "token_refresh": RateLimit(count: 150, seconds: 300, burst: 30),
        "verify": RateLimit(count: 30, seconds: 300, burst: 30),
        "otp": RateLimit(count: 30, seconds: 300, burst: 30),
    ]

    /// Parses `NAME=COUNT/SECONDS[:BURST]` (`token_refresh=150/300:30`); the burst defaults to the
    /// count. - Returns: nil, with the reason, when it is not that or names no documented limit.
    public static func parse(_ text: String) -> Result<(String, RateLimit), RateLimitError> {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, documented[parts[0]] != nil else {
            return .failure(
                RateLimitError(
                    "'\(text)': give NAME=COUNT/SECONDS[:BURST], NAME one of "
                        + documented.keys.sorted().joined(separator: ", ")))
        }
        let rate = parts[1].split(separator: ":", maxSplits: 1)
        let fraction = rate[0].split(separator: "/", maxSplits: 1)
        guard fraction.count == 2, let count = Double(fraction[0]), let seconds = Double(fraction[1]),
            count > 0, seconds > 0, count.isFinite, seconds.isFinite
        else { return .failure(RateLimitError("'\(text)': COUNT and SECONDS must be positive numbers")) }
        let burst = rate.count == 2 ? Int(rate[1]) : Int(count.rounded(.up))
        guard let burst, burst >= 1 else { return .failure(RateLimitError("'\(text)': BURST must be at least 1")) }
        return .success((parts[0], RateLimit(count: count, seconds: seconds, burst: burst)))
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// A `--rate-limit` value that cannot be used; the message says what to give.
public struct RateLimitError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
