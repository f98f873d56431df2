/// Sesame's fault-injection settings for one port (`/sesame/v1/faults`).
///
/// Not a Firebase feature. Faults apply to requests whose path starts with `pathPrefix`, or,
/// when it is unset, to every path except `/sesame/…` and `/emulator/…`; `/sesame/…` itself is
/// never faulted so a test can always switch faults off again.
struct FaultSettings: Sendable, Equatable {
    /// Added delay before each matching request is handled.
    var latencyMs = 0
    /// How many of the next matching requests fail with `failStatus`.
    var failNext = 0
    var failStatus = 503
    var failMessage = "UNAVAILABLE"
    var pathPrefix: String?
    /// Matching requests get their connection closed without any response.
    var down = false
    /// Lifetime of newly issued ID tokens (auth port only).
    var tokenTtlSeconds = 3600

    var json: JSON {
        var o: [String: JSON] = [
            "latencyMs": .int(latencyMs), "failNext": .int(failNext), "failStatus": .int(failStatus),
            "failMessage": .string(failMessage), "down": .bool(down), "tokenTtlSeconds": .int(tokenTtlSeconds),
        ]
        o["pathPrefix"] = pathPrefix.map(JSON.string)
        return .object(o)
    }

    /// Whether faults apply to `path`.
    func matches(_ path: String) -> Bool {
        if path.hasPrefix("/sesame/") { return false }
        if let pathPrefix { return path.hasPrefix(pathPrefix) }
        return !path.hasPrefix("/emulator/")
    }
}
