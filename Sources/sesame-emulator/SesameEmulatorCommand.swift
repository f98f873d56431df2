import ArgumentParser
import Foundation
import Logging
import SesameEmulator
import UnixSignals

/// `sesame-emulator`: composition and arguments only; everything else is in `SesameEmulator`.
@main
struct SesameEmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesame-emulator",
        abstract: "A local Firebase Auth Emulator-compatible backend plus a Realtime Database REST subset.",
        discussion: """
            When both ports accept connections it prints exactly one line per port to standard output:
              sesame-emulator: auth listening on http://HOST:PORT
              sesame-emulator: database listening on http://HOST:PORT
            Logs go to standard error, and warnings at start: when --host is not a loopback address, and
            that the Realtime Database is open until rules are uploaded. SIGINT, SIGTERM or SIGHUP stops it (saving, with --data-dir;
            exporting, with --export-on-exit).
            Point clients at it with FIREBASE_AUTH_EMULATOR_HOST=HOST:AUTH_PORT and
            FIREBASE_DATABASE_EMULATOR_HOST=HOST:DATABASE_PORT. See docs/emulator.md.
            With --supabase-port it also serves Supabase Auth (GoTrue, /auth/v1) and a PostgREST
            subset (/rest/v1) on that port, and prints five more lines:
              sesame-emulator: supabase listening on http://HOST:PORT
              sesame-emulator: supabase publishable key sb_publishable_...
              sesame-emulator: supabase secret key sb_secret_...
              sesame-emulator: supabase anon key JWT
              sesame-emulator: supabase service_role key JWT
            Each --supabase-extra-port adds, after the first of these, a line
              sesame-emulator: supabase extra port listening on http://HOST:PORT
            """)

    @Option(help: "Port of the Auth emulator (0 picks a free port).")
    var authPort: Int = 9099

    @Option(help: "Port of the Realtime Database emulator (0 picks a free port).")
    var databasePort: Int = 9000

    @Option(help: "Project id that tokens are issued for.")
    var project: String = "demo-project"

    @Option(help: "Address to bind both ports to.")
    var host: String = "127.0.0.1"

    @Option(
        name: .customLong("import"),
        help: ArgumentHelp("Load accounts and data from an export directory.", valueName: "dir"))
    var importDirectory: String?

    @Option(help: ArgumentHelp("Export accounts and data to this directory when stopping.", valueName: "dir"))
    var exportOnExit: String?

    @Option(
        help: ArgumentHelp(
            "Keep accounts and data here across restarts: loaded at start, saved after each request and at exit.",
            valueName: "dir"))
    var dataDir: String?

    @Option(
        help: ArgumentHelp(
            "Firebase: refuse sensitive calls (delete, password or email change, removing a second factor) with CREDENTIAL_TOO_OLD_LOGIN_AGAIN when the sign-in is older than this; 0 never refuses (production: 300).",
            valueName: "seconds"))
    var recentLoginSeconds: Int = 0

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @OptionGroup(title: "Rate limits (per source address)")
    var rateLimits: RateLimitOptions

    @OptionGroup(title: "Supabase (GoTrue + PostgREST subset)")
    var supabase: SupabaseOptions

    func validate() throws {
        for (name, port) in [("--auth-port", authPort), ("--database-port", databasePort)]
        where !(0...65535).contains(port) {
            throw ValidationError("\(name) must be between 0 and 65535")
        }
        if recentLoginSeconds < 0 { throw ValidationError("--recent-login-seconds must be 0 or more") }
        if Logger.Level(rawValue: logLevel) == nil { throw ValidationError("unknown --log-level \(logLevel)") }
        if importDirectory != nil && dataDir != nil {
            throw ValidationError("--data-dir loads its directory at start already: give --data-dir or --import")
        }
        try supabase.validate()
    }

    func run() async throws {
        var logger = Logger(label: "sesame-emulator") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var configuration = EmulatorConfiguration(
            host: host, authPort: authPort, databasePort: databasePort, projectId: project,
            importDirectory: importDirectory, logger: logger, supabase: supabase.configuration, dataDirectory: dataDir)
        configuration.recentLoginSeconds = recentLoginSeconds
        configuration.rateLimits = rateLimits.limits
        configuration.supabaseExtraPorts = (try? supabase.extraPorts()) ?? []  // validate() has refused bad ones
        let emulator: SesameEmulator
        do {
            emulator = try await SesameEmulator.start(
                configuration, gracefulShutdownSignals: [.sigterm, .sigint, .sighup])
        } catch {
            logger.error("emulator.start.failed", metadata: ["error": "\(error)"])
            throw ExitCode(69)
        }
        // Before the ready lines: a program that waits for them has the warnings already.
        let warnings = StartupWarnings.lines(
            host: host, databaseURL: "http://\(host):\(emulator.databasePort)", namespace: "\(project)-default-rtdb")
        FileHandle.standardError.write(Data(warnings.map { $0 + "\n" }.joined().utf8))
        let ready = """
            sesame-emulator: auth listening on http://\(host):\(emulator.authPort)
            sesame-emulator: database listening on http://\(host):\(emulator.databasePort)

            """ + supabaseLines(emulator)
        FileHandle.standardOutput.write(Data(ready.utf8))
        try await emulator.waitUntilStopped()
        if let exportOnExit {
            try await emulator.export(to: exportOnExit)
            logger.info("emulator.exported", metadata: ["emulator.export.directory": "\(exportOnExit)"])
        }
    }

    private func supabaseLines(_ emulator: SesameEmulator) -> String {
        guard let port = emulator.supabasePort, let anon = emulator.supabaseAnonKey,
            let service = emulator.supabaseServiceRoleKey, let publishable = emulator.supabasePublishableKey,
            let secret = emulator.supabaseSecretKey
        else { return "" }
        let extra = emulator.supabaseExtraPorts.map {
            "sesame-emulator: supabase extra port listening on http://\(host):\($0)\n"
        }.joined()
        return """
            sesame-emulator: supabase listening on http://\(host):\(port)
            \(extra)sesame-emulator: supabase publishable key \(publishable)
            sesame-emulator: supabase secret key \(secret)
            sesame-emulator: supabase anon key \(anon)
            sesame-emulator: supabase service_role key \(service)

            """
    }
}
