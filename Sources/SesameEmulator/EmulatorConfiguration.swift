public import Logging

/// How to start a ``SesameEmulator``.
public struct EmulatorConfiguration: Sendable {
    /// Address both ports bind to, e.g. `127.0.0.1`.
    public var host: String
    /// Port of the Auth emulator; 0 picks a free one (read it back from ``SesameEmulator/authPort``).
    public var authPort: Int
    /// Port of the Realtime Database emulator; 0 picks a free one.
    public var databasePort: Int
    /// The project id tokens are issued for (`aud`, `iss`).
    public var projectId: String
    /// A directory written by ``SesameEmulator/export(to:)`` (or by the Firebase emulators'
    /// `--export-on-exit`) to load at start; `nil` starts empty.
    public var importDirectory: String?
    /// A directory that holds the emulator's state across restarts (`--data-dir`): loaded at start
    /// when it has data (created when missing), saved after every handled request and when stopped,
    /// as ``SesameEmulator/export(to:)`` lays it out. `nil`: in memory only. Not with ``importDirectory``.
    public var dataDirectory: String?
    /// The emulator's notion of "now"; tests may pass a movable clock.
    public var clock: EmulatorClock
    /// Where the emulator logs; secrets are never logged above `debug`.
    public var logger: Logger
    /// The Supabase surface (GoTrue + PostgREST subset) on its own port; `nil` = not served.
    public var supabase: SupabaseEmulatorConfiguration?
    /// Further Supabase ports over the same users, sessions and tables as ``supabase``, each with
    /// its own settings (layout, autoconfirm, signups, keys…): several GoTrue servers sharing
    /// one database, as supabase-py's test servers do. Needs ``supabase``.
    public var supabaseExtraPorts: [SupabaseEmulatorConfiguration] = []
    /// Firebase: seconds after a sign-in within which `accounts:delete`, password and email
    /// changes, `VERIFY_AND_CHANGE_EMAIL` and `mfaEnrollment:withdraw` are accepted; older
    /// sign-ins get `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`. 0 (the default, as Google's emulator)
    /// never refuses; production's window is 300.
    public var recentLoginSeconds = 0
    /// Per-address limits by name (``RateLimit/documented``'s names), each port applying those
    /// of its service; empty (the default, `--rate-limits off`) limits nothing.
    public var rateLimits: [String: RateLimit] = [:]

    /// The RTDB namespace used when a request has no `?ns=`: `<projectId>-default-rtdb`.
    public var defaultNamespace: String { "\(projectId)-default-rtdb" }

    public init(
        host: String = "127.0.0.1",
        authPort: Int = 9099,
        databasePort: Int = 9000,
        projectId: String = "demo-project",
        importDirectory: String? = nil,
        clock: EmulatorClock = .system,
        logger: Logger = Logger(label: "sesame-emulator", factory: { _ in SwiftLogNoOpLogHandler() }),
        supabase: SupabaseEmulatorConfiguration? = nil,
        dataDirectory: String? = nil
    ) {
        self.host = host
        self.authPort = authPort
        self.databasePort = databasePort
        self.projectId = projectId
        self.importDirectory = importDirectory
        self.clock = clock
        self.logger = logger
        self.supabase = supabase
        self.dataDirectory = dataDirectory
    }
}
