import ArgumentParser
import SesameEmulator

/// `--rate-limits documented|off` and `--rate-limit NAME=COUNT/SECONDS[:BURST]`.
struct RateLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("rate-limits"),
        help: ArgumentHelp(
            "documented: limit each source address as the services document (Firebase: 100 new accounts an hour; GoTrue: 30 anonymous sign-ups an hour, 150 refreshes per 5 minutes with a burst of 30, ...), answering their own 429s; off: no limits (the default).",
            valueName: "documented|off"))
    var mode: String = "off"

    @Option(
        name: .customLong("rate-limit"),
        help: ArgumentHelp(
            "Set one limit (repeatable), turning limits on: account_creation, anonymous_users, token_refresh, verify or otp; e.g. token_refresh=150/300:30.",
            valueName: "NAME=COUNT/SECONDS[:BURST]"))
    var overrides: [String] = []

    func validate() throws {
        guard ["documented", "off"].contains(mode) else {
            throw ValidationError("--rate-limits must be documented or off, not \(mode)")
        }
        for text in overrides {
            if case .failure(let error) = RateLimit.parse(text) { throw ValidationError("--rate-limit \(error)") }
        }
    }

    /// The limits by name; empty when off and none was set.
    var limits: [String: RateLimit] {
        var limits = mode == "documented" || !overrides.isEmpty ? RateLimit.documented : [:]
        for text in overrides {
            if case .success(let (name, limit)) = RateLimit.parse(text) { limits[name] = limit }
        }
        return limits
    }
}
