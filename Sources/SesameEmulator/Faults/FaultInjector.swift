/// The single owner of one port's fault settings and per-endpoint call counters.
actor FaultInjector {
    private(set) var settings = FaultSettings()
    private var calls: [String: Int] = [:]

    /// Counts the call under `key` (when given) and decides what happens to it. Consumes one
    /// `failNext` when it decides to fail.
    func admit(path: String, key: String?) -> FaultDecision {
        if let key { calls[key, default: 0] += 1 }
        guard settings.matches(path) else { return .proceed(delayMs: 0) }
        if settings.down { return .drop }
        if settings.failNext > 0 {
            settings.failNext -= 1
            return .fail(delayMs: settings.latencyMs, status: settings.failStatus, message: settings.failMessage)
        }
        return .proceed(delayMs: settings.latencyMs)
    }

    /// Applies the fields present in `body`; absent fields are left unchanged.
    /// - Throws: a message naming the first field of the wrong type or range.
    func apply(_ body: [String: JSON]) throws(FaultSettingsError) -> FaultSettings {
        var next = settings
        func int(_ key: String, min: Int) throws(FaultSettingsError) -> Int? {
            guard let v = body[key], !v.isNull else { return nil }
            guard let i = v.intValue, i >= min else { throw FaultSettingsError(message: "\(key) must be an integer >= \(min)") }
            return i
        }
        if let v = try int("latencyMs", min: 0) { next.latencyMs = v }
        if let v = try int("failNext", min: 0) { next.failNext = v }
        if let v = try int("failStatus", min: 100) {
            guard v <= 599 else { throw FaultSettingsError(message: "failStatus must be an HTTP status") }
            next.failStatus = v
        }
        if let v = try int("tokenTtlSeconds", min: 1) { next.tokenTtlSeconds = v }
        if let v = body["failMessage"], !v.isNull {
            guard let s = v.stringValue else { throw FaultSettingsError(message: "failMessage must be a string") }
            next.failMessage = s
        }
        if let v = body["pathPrefix"] {
            if v.isNull {
                next.pathPrefix = nil
            } else {
                guard let s = v.stringValue else { throw FaultSettingsError(message: "pathPrefix must be a string") }
                next.pathPrefix = s.isEmpty ? nil : s
            }
        }
        if let v = body["down"], !v.isNull {
            guard let b = v.boolValue else { throw FaultSettingsError(message: "down must be a boolean") }
            next.down = b
        }
        settings = next
        return next
    }

    /// The settings and counters as `GET /sesame/v1/faults` shows them.
    func report() -> JSON {
        ["faults": settings.json, "calls": .object(calls.mapValues(JSON.int))]
    }

    /// Clears faults and counters.
    func reset() {
        settings = FaultSettings()
        calls = [:]
    }
}

/// A `/sesame/v1/faults` body that does not fit the schema.
struct FaultSettingsError: Error, Sendable {
    var message: String
}
