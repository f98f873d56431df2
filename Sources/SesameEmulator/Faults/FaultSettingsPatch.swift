import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// The body of `POST /sesame/v1/faults`: every field optional; absent fields leave the setting
/// unchanged, `null` leaves it unchanged too except for `pathPrefix`, `retryAfter` and
/// `tokenExpiresIn`, which it clears.
struct FaultSettingsPatch: Decodable, Sendable {
    typealias Change = @Sendable (inout FaultSettings) -> Void

    /// One change per field present, in the order the fields are read.
    private let changes: [Change]

    enum CodingKeys: String, CodingKey {
        case latencyMs, answerDelayMs, dripBodyMs, dripBytes, failNext, failStatus, failMessage, retryAfter, pathPrefix,
            down, reset, garbage
        case tokenTtlSeconds, tokenExpiresIn, clockSkewSeconds
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var changes: [Change] = []
        func value<T: Decodable>(_ key: CodingKeys, _ type: T.Type, _ rule: String) throws -> T? {
            do {
                return try c.decodeIfPresent(T.self, forKey: key)
            } catch {
                throw FaultSettingsError(message: "\(key.stringValue) must be \(rule)")
            }
        }
        func set<T: Sendable>(_ value: T?, _ field: any WritableKeyPath<FaultSettings, T> & Sendable) {
            if let value { changes.append { $0[keyPath: field] = value } }
        }
        func integer(_ key: CodingKeys, min: Int, max: Int = .max, _ rule: String? = nil) throws -> Int? {
            let rule = rule ?? "an integer >= \(min)"
            guard let v = try value(key, Int.self, rule) else { return nil }
            guard v >= min, v <= max else { throw FaultSettingsError(message: "\(key.stringValue) must be \(rule)") }
            return v
        }
        /// A field that `null` clears (an empty string too, for the text ones).
        func clearable<T: Decodable & Sendable>(
            _ key: CodingKeys, _ rule: String, _ field: any WritableKeyPath<FaultSettings, T?> & Sendable
        ) throws {
            guard c.contains(key) else { return }
            let value = try value(key, T.self, rule)
            changes.append { $0[keyPath: field] = (value as? String)?.isEmpty == true ? nil : value }
        }
        set(try integer(.latencyMs, min: 0), \.latencyMs)
        set(try integer(.answerDelayMs, min: 0), \.answerDelayMs)
        set(try integer(.dripBodyMs, min: 0), \.dripBodyMs)
        set(try integer(.dripBytes, min: 1, max: 1 << 20, "an integer from 1 to 1048576"), \.dripBytes)
        set(try integer(.failNext, min: 0), \.failNext)
        set(try integer(.failStatus, min: 100, max: 599, "an HTTP status (100-599)"), \.failStatus)
        set(try integer(.tokenTtlSeconds, min: 1), \.tokenTtlSeconds)
        set(
            try integer(.clockSkewSeconds, min: -315_360_000, max: 315_360_000, "an integer number of seconds"),
            \.clockSkewSeconds)
        set(try value(.failMessage, String.self, "a string"), \.failMessage)
        set(try value(.down, Bool.self, "a boolean"), \.down)
        set(try value(.reset, Bool.self, "a boolean"), \.reset)
        set(try value(.garbage, Bool.self, "a boolean"), \.garbage)
        try clearable(.pathPrefix, "a string or null", \.pathPrefix)
        try clearable(.tokenExpiresIn, "a string or null", \.tokenExpiresIn)
        try clearable(.retryAfter, "an integer >= 0 or a string (an HTTP date)", \.retryAfter)
        self.changes = changes
    }

    /// `settings` with the present fields applied.
    func applied(to settings: FaultSettings) -> FaultSettings {
        var next = settings
        for change in changes { change(&next) }
        return next
    }
}

/// A `/sesame/v1/faults` body that does not fit the schema; `message` names the field.
struct FaultSettingsError: HTTPResponseError, Sendable {
    var message: String
    var status: HTTPResponse.Status { .badRequest }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        .json(["error": .string(message)] as JSONValue, status: status)
    }
}
