import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// The body of `POST /sesame/v1/faults`: every field optional; absent fields leave the setting
/// unchanged, `null` leaves it unchanged too except for `pathPrefix`, `retryAfter` and
/// `tokenExpiresIn`, which it clears.
struct FaultSettingsPatch: Decodable, Sendable {
    var latencyMs: Int?
    var answerDelayMs: Int?
    var dripBodyMs: Int?
    var dripBytes: Int?
    var failNext: Int?
    var failStatus: Int?
    var failMessage: String?
    var retryAfter: RetryAfter??
    var pathPrefix: String??
    var down: Bool?
    var reset: Bool?
    var garbage: Bool?
    var tokenTtlSeconds: Int?
    var tokenExpiresIn: String??
    var clockSkewSeconds: Int?

    enum CodingKeys: String, CodingKey {
        case latencyMs, answerDelayMs, dripBodyMs, dripBytes, failNext, failStatus, failMessage, retryAfter, pathPrefix,
            down, reset, garbage
        case tokenTtlSeconds, tokenExpiresIn, clockSkewSeconds
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys, _ type: T.Type, _ rule: String) throws -> T? {
            do {
                return try c.decodeIfPresent(T.self, forKey: key)
            } catch {
                throw FaultSettingsError(message: "\(key.stringValue) must be \(rule)")
            }
        }
        func integer(_ key: CodingKeys, min: Int, max: Int = .max, _ rule: String? = nil) throws -> Int? {
            let rule = rule ?? "an integer >= \(min)"
            guard let v = try value(key, Int.self, rule) else { return nil }
            guard v >= min, v <= max else { throw FaultSettingsError(message: "\(key.stringValue) must be \(rule)") }
            return v
        }
        latencyMs = try integer(.latencyMs, min: 0)
        answerDelayMs = try integer(.answerDelayMs, min: 0)
        dripBodyMs = try integer(.dripBodyMs, min: 0)
        dripBytes = try integer(.dripBytes, min: 1, max: 1 << 20, "an integer from 1 to 1048576")
        failNext = try integer(.failNext, min: 0)
        failStatus = try integer(.failStatus, min: 100, max: 599, "an HTTP status (100-599)")
        tokenTtlSeconds = try integer(.tokenTtlSeconds, min: 1)
        clockSkewSeconds = try integer(
            .clockSkewSeconds, min: -315_360_000, max: 315_360_000, "an integer number of seconds")
        failMessage = try value(.failMessage, String.self, "a string")
        down = try value(.down, Bool.self, "a boolean")
        reset = try value(.reset, Bool.self, "a boolean")
        garbage = try value(.garbage, Bool.self, "a boolean")
        if c.contains(.pathPrefix) {
            pathPrefix = .some(try value(.pathPrefix, String.self, "a string or null"))
        }
        if c.contains(.tokenExpiresIn) {
            tokenExpiresIn = .some(try value(.tokenExpiresIn, String.self, "a string or null"))
        }
        if c.contains(.retryAfter) {
            retryAfter = .some(try value(.retryAfter, RetryAfter.self, "an integer >= 0 or a string (an HTTP date)"))
        }
    }

    /// `settings` with the present fields applied.
    func applied(to settings: FaultSettings) -> FaultSettings {
        var next = settings
        if let latencyMs { next.latencyMs = latencyMs }
        if let answerDelayMs { next.answerDelayMs = answerDelayMs }
        if let dripBodyMs { next.dripBodyMs = dripBodyMs }
        if let dripBytes { next.dripBytes = dripBytes }
        if let failNext { next.failNext = failNext }
        if let failStatus { next.failStatus = failStatus }
        if let failMessage { next.failMessage = failMessage }
        if let retryAfter { next.retryAfter = retryAfter }
        if let pathPrefix { next.pathPrefix = pathPrefix.flatMap { $0.isEmpty ? nil : $0 } }
        if let down { next.down = down }
        if let reset { next.reset = reset }
        if let garbage { next.garbage = garbage }
        if let tokenTtlSeconds { next.tokenTtlSeconds = tokenTtlSeconds }
        if let clockSkewSeconds { next.clockSkewSeconds = clockSkewSeconds }
        if let tokenExpiresIn { next.tokenExpiresIn = tokenExpiresIn.flatMap { $0.isEmpty ? nil : $0 } }
        return next
    }
}

/// A `/sesame/v1/faults` body that does not fit the schema; `message` names the field.
struct FaultSettingsError: Error, Sendable {
    var message: String
}

extension FaultSettingsError: HTTPResponseError {
    var status: HTTPResponse.Status { .badRequest }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        .json(["error": .string(message)] as JSONValue, status: status)
    }
}
