import Hummingbird

/// The single owner of one port's fault settings and per-endpoint call counters.
actor FaultInjector {
    private(set) var settings = FaultSettings()
    private var calls: [String: Int] = [:]
    /// Answers handled but held back by `answerDelayMs` right now (not cleared by ``reset()``).
    private var answersHeld = 0

    /// Counts the call under `key` (when given) and each of `extraKeys` and decides what happens to it. Consumes one
    /// `failNext` when it decides to fail. `down` wins over `reset`, `reset` over `garbage`,
    /// `garbage` over `failNext`.
    func admit(path: String, key: String?, extraKeys: [String] = []) -> FaultDecision {
        if let key { calls[key, default: 0] += 1 }
        for extra in extraKeys { calls[extra, default: 0] += 1 }
        guard settings.matches(path) else { return .proceed(delayMs: 0) }
        if settings.down { return .drop }
        if settings.reset { return .reset }
        if settings.garbage { return .garbage(delayMs: settings.latencyMs) }
        if settings.failNext > 0 {
            settings.failNext -= 1
            return .fail(
                delayMs: settings.latencyMs, status: settings.failStatus, message: settings.failMessage,
                retryAfter: settings.retryAfter)
        }
        return .proceed(delayMs: settings.latencyMs)
    }

    /// How long to hold the answer to a handled request on `path` (`answerDelayMs`), counting
    /// it as held; the caller calls ``answerReleased()`` once it sends it.
    func holdAnswer(path: String) -> Int {
        guard settings.answerDelayMs > 0, settings.matches(path) else { return 0 }
        answersHeld += 1
        return settings.answerDelayMs
    }

    /// How to trickle the body of an answer on `path` (`dripBodyMs`, `dripBytes`), or `nil`.
    func drip(path: String) -> (intervalMs: Int, bytes: Int)? {
        guard settings.dripBodyMs > 0, settings.matches(path) else { return nil }
        return (settings.dripBodyMs, settings.dripBytes)
    }

    func answerReleased() { answersHeld -= 1 }

    /// Applies the fields present in `patch`.
    func apply(_ patch: FaultSettingsPatch) -> FaultSettings {
        settings = patch.applied(to: settings)
        return settings
    }

    /// The settings and counters as `GET /sesame/v1/faults` shows them.
    func report() -> FaultReport { FaultReport(faults: settings, calls: calls, answersHeld: answersHeld) }

    /// Clears faults and counters.
    func reset() {
        settings = FaultSettings()
        calls = [:]
    }
}

/// The answer of `/sesame/v1/faults`.
struct FaultReport: ResponseEncodable, Sendable {
    var faults: FaultSettings
    var calls: [String: Int]
    var answersHeld: Int
}
