import SesameLocalAPI
import Testing

/// One fault the emulator injects on the call under test: a column of the fault matrix.
enum MatrixFault: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case latency
    case drippingBody
    case serverError
    case rateLimited
    case reset
    case dropped
    case garbage
    case clockAhead
    case clockBehind

    var testDescription: String {
        switch self {
        case .latency: "latency past the timeout"
        case .drippingBody: "head at once, body dripping past the timeout"
        case .serverError: "503"
        case .rateLimited: "429 with Retry-After"
        case .reset: "connection reset"
        case .dropped: "connection closed unanswered"
        case .garbage: "garbage body"
        case .clockAhead: "backend clock +10 min"
        case .clockBehind: "backend clock -10 min"
        }
    }

    /// The daemon's `backend.request_timeout` in the matrix, and how long past it the backend
    /// holds its answer.
    static let requestTimeoutSeconds = 1
    static let answerDelayMs = 2_500
    /// `Retry-After` of the 429, in seconds.
    static let retryAfterSeconds = 7

    /// The backend does the work and only its answer comes too late: a retry meets what the
    /// lost answer would have said.
    var isLateAnswer: Bool { self == .latency || self == .drippingBody }

    /// A clock skew is not a failure: the flow must succeed.
    var isSkew: Bool { self == .clockAhead || self == .clockBehind }

    /// The connectivity the state shows after the fault (docs/protocol.md, State and Rate
    /// limits): a rate limit is `rate-limited`, any other failure `offline`.
    var expectedConnectivity: SesameConnectivity { self == .rateLimited ? .rateLimited : .offline }

    /// The `data.reason` the client gets (docs/protocol.md, code 2000); nil for a skew.
    var expectedReason: String? {
        switch self {
        case .latency, .drippingBody, .reset, .dropped: "network-request-failed"
        case .serverError, .garbage: "backend-unavailable"
        case .rateLimited: "too-many-requests"
        case .clockAhead, .clockBehind: nil
        }
    }

    /// The `/sesame/v1/faults` settings that inject this fault on paths starting with `prefix`.
    /// Failures are not limited to one call: a flow stops at its first failed call, and the
    /// daemon's own retries (anonymous start) must keep failing until the fault is cleared.
    func settings(pathPrefix prefix: String) -> JSONValue {
        var settings: [String: JSONValue] = ["pathPrefix": .string(prefix)]
        switch self {
        case .latency:
            // The backend does the work at once and holds its answer past the daemon's timeout:
            // the hard case, where the retry meets what the lost answer would have said. (A
            // request held *before* it is handled, `latencyMs`, is also handled late, after the
            // daemon's compensating calls: see docs/RELIABILITY.md.)
            settings["answerDelayMs"] = .integer(Int64(Self.answerDelayMs))
        case .drippingBody:
            // Done at once, the head sent at once, the body one byte every 200 ms for 4 s: the
            // call must end at the deadline all the same, body included.
            settings["dripBodyMs"] = 200
            settings["dripBytes"] = 20
        case .serverError:
            settings["failNext"] = 1_000
            settings["failStatus"] = 503
        case .rateLimited:
            settings["failNext"] = 1_000
            settings["failStatus"] = 429
            settings["failMessage"] = "TOO_MANY_ATTEMPTS_TRY_LATER"
            settings["retryAfter"] = .integer(Int64(Self.retryAfterSeconds))
        case .reset: settings["reset"] = true
        case .dropped: settings["down"] = true
        case .garbage: settings["garbage"] = true
        case .clockAhead: settings = ["clockSkewSeconds": 600]
        case .clockBehind: settings = ["clockSkewSeconds": -600]
        }
        return .object(settings)
    }
}
