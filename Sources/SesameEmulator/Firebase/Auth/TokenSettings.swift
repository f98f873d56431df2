import SesameLocalAPI

/// How the Auth port issues tokens: the factory and the knobs the CLI and the fault extension
/// turn.
struct TokenSettings: Sendable {
    let factory: TokenFactory
    /// Lifetime of newly issued ID tokens (Sesame fault extension `tokenTtlSeconds`).
    var lifetime = 3600
    /// The `expiresIn` text sent instead of the lifetime (Sesame fault extension `tokenExpiresIn`).
    var expiresInText: String?
    /// Seconds after a sign-in (`auth_time`) within which sensitive calls are accepted; 0 =
    /// always, as Google's emulator (CLI `--recent-login-seconds`).
    var recentLoginSeconds = 0

    /// The `expiresIn` of a sign-in's answer.
    var expiresIn: String { expiresInText ?? String(lifetime) }
}
