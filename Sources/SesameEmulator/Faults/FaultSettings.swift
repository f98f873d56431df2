/// Sesame's fault-injection settings for one port (`/sesame/v1/faults`).
///
/// Not a Firebase feature. Faults apply to requests whose path starts with `pathPrefix`, or,
/// when it is unset, to every path except `/sesame/…` and `/emulator/…`; `/sesame/…` itself is
/// never faulted so a test can always switch faults off again.
struct FaultSettings: Sendable, Equatable, Encodable {
    /// Where each port serves its settings.
    static let endpoint = "/sesame/v1/faults"

    /// Added delay before each matching request is handled.
    var latencyMs = 0
    /// Added delay after each matching request was handled, before its answer is sent (the
    /// server's work is done; the client has not heard of it yet).
    var answerDelayMs = 0
    /// How many of the next matching requests fail with `failStatus`.
    var failNext = 0
    var failStatus = 503
    var failMessage = "UNAVAILABLE"
    /// A `Retry-After` header on injected failures.
    var retryAfter: RetryAfter?
    var pathPrefix: String?
    /// When above 0, each matching answer's head is sent at once and its body is preceded by
    /// `dripBytes` spaces (valid leading JSON whitespace), one every `dripBodyMs` milliseconds:
    /// a backend or proxy that trickles its answer.
    var dripBodyMs = 0
    var dripBytes = 30
    /// Matching requests get their connection closed without any response.
    var down = false
    /// Matching requests get their connection reset (RST) instead of an answer.
    var reset = false
    /// Matching requests get `200` with a body that is not JSON.
    var garbage = false
    /// Lifetime of newly issued ID tokens (auth port only).
    var tokenTtlSeconds = 3600
    /// The `expiresIn` text sent with newly issued tokens instead of their lifetime, as given
    /// (`"1e21"`, `"0.001"`): a hostile backend for tests. The JWT's `exp` keeps
    /// `tokenTtlSeconds`. Firebase auth port only; nil: the lifetime.
    var tokenExpiresIn: String?
    /// How far the port's clock runs ahead of the real one (negative: behind).
    var clockSkewSeconds = 0

    func matches(_ path: String) -> Bool {
        if path.hasPrefix("/sesame/") { return false }
        if let pathPrefix { return path.hasPrefix(pathPrefix) }
        return !path.hasPrefix("/emulator/")
    }
}

/// The `Retry-After` value of injected failures: delay seconds, or any text (an HTTP date) sent
/// as is.
enum RetryAfter: Sendable, Equatable, Codable {
    case seconds(Int)
    case text(String)

    var headerValue: String {
        switch self {
        case .seconds(let s): return String(s)
        case .text(let t): return t
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Int.self) {
            guard seconds >= 0 else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "negative")
            }
            self = .seconds(seconds)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if case .seconds(let seconds) = self {
            try container.encode(seconds)
        } else {
            try container.encode(headerValue)
        }
    }
}
