import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
public import UnixSignals

/// A running Firebase Auth Emulator-compatible backend plus a Realtime Database REST subset, and
/// optionally Supabase Auth (GoTrue) with a PostgREST subset on a third port.
///
/// Start one with ``start(_:gracefulShutdownSignals:)``; it serves until ``stop()`` (or one of
/// the given signals). All state is in memory, owned by actors (accounts, database, Supabase), so
/// the value is `Sendable` and may be shared freely between tasks; with
/// ``EmulatorConfiguration/dataDirectory`` it is also kept on disk across restarts.
public final class SesameEmulator: Sendable {
    /// The port the Auth emulator is bound to (the real one when 0 was asked for).
    public let authPort: Int
    /// The port the database emulator is bound to.
    public let databasePort: Int
    /// The configuration it was started with.
    public let configuration: EmulatorConfiguration
    /// The port of the Supabase surface, when ``EmulatorConfiguration/supabase`` is set.
    public let supabasePort: Int?
    /// The ports of ``EmulatorConfiguration/supabaseExtraPorts``, in their order.
    public let supabaseExtraPorts: [Int]
    /// The Supabase anon key (an HS256 JWT, `role: anon`: a "legacy API key"), when Supabase is served.
    public var supabaseAnonKey: String? { supabaseStore?.jwt.apiKey(role: "anon") }
    /// The Supabase service_role key, when Supabase is served.
    public var supabaseServiceRoleKey: String? { supabaseStore?.jwt.apiKey(role: "service_role") }
    /// The opaque publishable key (`sb_publishable_…`), which the gateway takes as the anon key.
    public var supabasePublishableKey: String? { supabasePort == nil ? nil : configuration.supabase?.publishableKey }
    /// The opaque secret key (`sb_secret_…`), which the gateway takes as the service_role key.
    public var supabaseSecretKey: String? { supabasePort == nil ? nil : configuration.supabase?.secretKey }

    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let auth: AccountStore
    private let database: DatabaseState
    private let supabaseStore: GoTrueStore?

    /// Binds both ports and returns once both accept connections.
    /// - Parameters:
    ///   - configuration: host, ports (0 = ephemeral), project, optional import or data directory.
    ///   - gracefulShutdownSignals: signals that stop the emulator (the executable passes SIGINT,
    ///     SIGTERM and SIGHUP; in-process users usually pass none and call ``stop()``).
    /// - Throws: ``SesameEmulatorError`` when a port cannot be bound, or the import or data
    ///   directory cannot be read (or the data directory written).
    public static func start(
        _ configuration: EmulatorConfiguration, gracefulShutdownSignals: [UnixSignal] = []
    ) async throws -> SesameEmulator {
        try await SesameEmulator(configuration, gracefulShutdownSignals: gracefulShutdownSignals)
    }

    private init(_ configuration: EmulatorConfiguration, gracefulShutdownSignals: [UnixSignal]) async throws {
        if configuration.importDirectory != nil && configuration.dataDirectory != nil {
            throw SesameEmulatorError("a data directory is loaded at start already: give it or an import directory")
        }
        let logger = configuration.logger
        let authSkew = ClockSkew()
        let databaseSkew = ClockSkew()
        let auth = AccountStore(
            projectId: configuration.projectId, clock: configuration.clock.skewed(by: authSkew), logger: logger)
        await auth.setRecentLoginSeconds(configuration.recentLoginSeconds)
        let database = DatabaseState(clock: configuration.clock.skewed(by: databaseSkew))
        let supabaseSkew = ClockSkew()
        let supabaseStore = try configuration.supabase.map {
            // With --supabase-jwt-keys the given keys sign; no key is made or saved.
            let key =
                $0.jwtKeys != nil
                ? nil
                : try SupabaseSigningKey.load(
                    $0.signingAlgorithm, from: configuration.dataDirectory ?? configuration.importDirectory)
            return GoTrueStore(configuration: $0, clock: configuration.clock.skewed(by: supabaseSkew), signingKey: key)
        }
        if let directory = configuration.importDirectory {
            try await EmulatorSnapshot.read(from: directory, auth: auth, database: database, supabase: supabaseStore)
        }
        let saver = configuration.dataDirectory.map {
            DataDirectorySaver(directory: $0, auth: auth, database: database, supabase: supabaseStore, logger: logger)
        }
        try await saver?.load()

        let (bound, boundContinuation) = AsyncStream.makeStream(of: (String, Int).self)
        let identityProvider = FakeIdentityProvider(clock: configuration.clock)
        let authEndpoints = AuthEndpoints(
            state: auth, projectId: configuration.projectId,
            fallbackHost: "\(configuration.host):\(configuration.authPort)", clockSkew: authSkew,
            identityProvider: identityProvider)
        let databaseEndpoints = DatabaseEndpoints(
            state: database, defaultNamespace: configuration.defaultNamespace, clockSkew: databaseSkew)
        let shared = PortSettings(
            host: configuration.host, logger: logger, bound: boundContinuation, saver: saver,
            rateLimits: configuration.rateLimits, clock: configuration.clock)
        var apps: [any Service] = [
            Self.application(name: "auth", endpoints: authEndpoints, port: configuration.authPort, shared),
            Self.application(name: "database", endpoints: databaseEndpoints, port: configuration.databasePort, shared),
        ]
        if let supabase = configuration.supabase, let store = supabaseStore {
            // Further GoTrue servers over the same state, each with its own settings and keys.
            let extras = try configuration.supabaseExtraPorts.map { extra in
                let key = extra.jwtKeys != nil ? nil : try SupabaseSigningKey.load(extra.signingAlgorithm, from: nil)
                return (extra, GoTrueServer(configuration: extra, signingKey: key))
            }
            for (index, (settings, server)) in ([(supabase, store.main)] + extras).enumerated() {
                let endpoints = SupabaseEndpoints(
                    store: store, server: server, fallbackHost: "\(configuration.host):\(settings.port)",
                    clockSkew: supabaseSkew, identityProvider: identityProvider)
                let name = index == 0 ? "supabase" : "supabase-\(index - 1)"
                apps.append(Self.application(name: name, endpoints: endpoints, port: settings.port, shared))
            }
        } else if !configuration.supabaseExtraPorts.isEmpty {
            throw SesameEmulatorError("further Supabase ports need the main one (EmulatorConfiguration.supabase)")
        }
        // The saver first: graceful shutdown stops services in reverse order, so it saves last.
        let services: [any Service] = (saver.map { [$0] } ?? []) + apps
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: gracefulShutdownSignals, logger: logger))
        let running = Task {
            defer { boundContinuation.finish() }
            try await group.run()
        }

        var ports: [String: Int] = [:]
        for await (name, port) in bound {
            ports[name] = port
            if ports.count == apps.count { break }
        }
        guard let authPort = ports["auth"], let databasePort = ports["database"],
            configuration.supabase == nil || ports["supabase"] != nil, ports.count == apps.count
        else {
            await group.triggerGracefulShutdown()
            do {
                try await running.value
            } catch {
                throw SesameEmulatorError("sesame-emulator could not start on \(configuration.host): \(error)")
            }
            throw SesameEmulatorError("sesame-emulator stopped before it was ready")
        }
        self.authPort = authPort
        self.databasePort = databasePort
        self.supabasePort = ports["supabase"]
        self.supabaseExtraPorts = configuration.supabaseExtraPorts.indices.compactMap { ports["supabase-\($0)"] }
        self.configuration = configuration
        self.group = group
        self.running = running
        self.auth = auth
        self.database = database
        self.supabaseStore = supabaseStore
    }

    /// What every port's application shares.
    private struct PortSettings {
        var host: String
        var logger: Logger
        var bound: AsyncStream<(String, Int)>.Continuation
        var saver: DataDirectorySaver?
        var rateLimits: [String: RateLimit]
        var clock: EmulatorClock
    }

    private static func application<E: EmulatorEndpoints>(
        name: String, endpoints: E, port: Int, _ settings: PortSettings
    ) -> some Service {
        let faults = FaultInjector()
        let limits = RateLimiter(limits: settings.rateLimits, clock: settings.clock)
        let router = Router(context: EmulatorRequestContext.self)
        router.add(middleware: EmulatorMiddleware(endpoints: endpoints, faults: faults, limits: limits))
        router.get(RouterPath(RateLimitReport.endpoint)) { _, _ in await limits.report() }
        if let saver = settings.saver { router.add(middleware: ChangeNoticeMiddleware { saver.noteChange() }) }
        FaultRoutes(faults: faults, endpoints: endpoints).add(to: router)
        endpoints.addRoutes(to: router)
        let bound = settings.bound
        return Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: port), serverName: "sesame-emulator"),
            onServerRunning: { channel in
                bound.yield((name, channel.localAddress?.port ?? port))
            },
            logger: settings.logger)
    }

    /// Stops serving: closes idle connections, waits for requests in flight, and returns when
    /// both ports are closed. Calling it again does nothing more.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// Waits until the emulator stops (through ``stop()`` or a shutdown signal).
    /// - Throws: what the servers failed with, if they failed rather than stopped.
    public func waitUntilStopped() async throws { try await running.value }

    /// Writes accounts, configuration and every database namespace to `directory` in the
    /// Firebase emulators' export layout, creating it when needed.
    /// - Throws: ``SesameEmulatorError`` naming the directory when a file cannot be written.
    public func export(to directory: String) async throws {
        try await EmulatorSnapshot.write(to: directory, auth: auth, database: database, supabase: supabaseStore)
    }
}
