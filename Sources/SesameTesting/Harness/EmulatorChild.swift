import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The built `sesame-emulator` run as a child process on ephemeral ports, read back from the
/// lines it prints once they are bound (the contract its users script against); with
/// `supabase`, its Supabase surface too, with the keys it prints.
public final class EmulatorChild: Sendable {
    public let child: ChildProcess
    /// Holds the child's output files; removed by ``stop()``.
    public let directory: String
    public let authPort: Int
    public let databasePort: Int
    /// The Supabase surface, when started with it.
    public let supabase: SupabaseEndpoint?
    /// The project the emulator issues tokens for.
    public static let project = "demo-project"

    /// Where the emulator serves Supabase, and the keys it printed.
    public struct SupabaseEndpoint: Sendable {
        public var url: String
        public var port: Int
        public var anonKey: String
        public var serviceRoleKey: String
        /// The opaque keys of new projects (`sb_publishable_…`, `sb_secret_…`).
        public var publishableKey: String
        public var secretKey: String
    }

    private init(
        child: ChildProcess, directory: String, authPort: Int, databasePort: Int, supabase: SupabaseEndpoint?
    ) {
        self.child = child
        self.directory = directory
        self.authPort = authPort
        self.databasePort = databasePort
        self.supabase = supabase
    }

    private static let prefixes = [
        "url": "sesame-emulator: supabase listening on ", "anon": "sesame-emulator: supabase anon key ",
        "service": "sesame-emulator: supabase service_role key ",
        "publishable": "sesame-emulator: supabase publishable key ", "secret": "sesame-emulator: supabase secret key ",
    ]

    /// Starts the emulator with `--auth-port 0 --database-port 0 --project demo-project` (and
    /// `--supabase-port 0` when `supabase`), then `arguments`; returns once it printed its ports.
    /// - Throws: ``HarnessError`` with its stderr when it printed no ports in time.
    public static func start(supabase: Bool = false, arguments: [String] = []) async throws -> EmulatorChild {
        let directory = try makeTemporaryDirectory("emu")
        var all = ["--auth-port", "0", "--database-port", "0", "--project", project]
        if supabase { all += ["--supabase-port", "0"] }
        let child = try await ChildProcess(
            BuiltBinaries.path("sesame-emulator"), all + arguments, logPrefix: directory + "/emulator")
        var auth: Int?, database: Int?
        var printed: [String: String] = [:]
        do {
            try await eventually("the emulator prints its ports") {
                guard child.isRunning else { return true }
                for line in child.stdout.split(separator: "\n") {
                    for (name, prefix) in prefixes where line.hasPrefix(prefix) {
                        printed[name] = String(line.dropFirst(prefix.count))
                    }
                    if line.hasPrefix("sesame-emulator: supabase") { continue }
                    let port = line.split(separator: ":").last.flatMap { Int($0) }
                    if line.contains("auth listening") { auth = port }
                    if line.contains("database listening") { database = port }
                }
                return auth != nil && database != nil && (!supabase || printed.count == prefixes.count)
            }
            guard child.isRunning else { throw HarnessError("sesame-emulator exited") }
        } catch {
            child.signal(SIGKILL)
            _ = try? await child.waitForExit()
            try? FileManager.default.removeItem(atPath: directory)
            throw HarnessError("\(error); emulator stderr: \(child.stderr.suffix(2000))")
        }
        var endpoint: SupabaseEndpoint?
        if supabase, let url = printed["url"], let port = url.split(separator: ":").last.flatMap({ Int($0) }) {
            endpoint = SupabaseEndpoint(
                url: url, port: port, anonKey: printed["anon"]!, serviceRoleKey: printed["service"]!,
                publishableKey: printed["publishable"]!, secretKey: printed["secret"]!)
        }
        return EmulatorChild(
            child: child, directory: directory, authPort: auth!, databasePort: database!, supabase: endpoint)
    }

    public var authHost: String { "127.0.0.1:\(authPort)" }
    public var databaseHost: String { "127.0.0.1:\(databasePort)" }

    /// SIGTERM, the exit awaited (SIGKILL when it does not come), and its files removed.
    public func stop() async {
        child.signal(SIGTERM)
        if (try? await child.waitForExit()) == nil {
            child.signal(SIGKILL)
            _ = try? await child.waitForExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
