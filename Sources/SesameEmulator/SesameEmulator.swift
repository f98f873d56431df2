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
/// the value is `Sendable` and may be shared freely between tasks.
public final class SesameEmulator: Sendable {
    /// The port the Auth emulator is bound to (the real one when 0 was asked for).
    public let authPort: Int
    /// The port the database emulator is bound to.
    public let databasePort: Int
    /// The configuration it was started with.
    public let configuration: EmulatorConfiguration
    /// The port of the Supabase surface, when ``EmulatorConfiguration/supabase`` is set.
    public let supabasePort: Int?
    /// The Supabase anon key (an HS256 JWT with `role: anon`), when Supabase is served.
    public var supabaseAnonKey: String? { supabaseStore?.jwt.apiKey(role: "anon") }
    /// The Supabase service_role key, when Supabase is served.
    public var supabaseServiceRoleKey: String? { supabaseStore?.jwt.apiKey(role: "service_role") }

    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    private let auth: AccountStore
    private let database: DatabaseState
    private let supabaseStore: GoTrueStore?

    private init(
        authPort: Int, databasePort: Int, supabasePort: Int?, configuration: EmulatorConfiguration, group: ServiceGroup,
        running: Task<Void, any Error>, auth: AccountStore, database: DatabaseState, supabaseStore: GoTrueStore?
    ) {
        self.authPort = authPort
        self.databasePort = databasePort
        self.supabasePort = supabasePort
        self.supabaseStore = supabaseStore
        self.configuration = configuration
        self.group = group
        self.running = running
        self.auth = auth
        self.database = database
    }

    /// Binds both ports and returns once both accept connections.
    /// - Parameters:
    ///   - configuration: host, ports (0 = ephemeral), project, optional import directory.
    ///   - gracefulShutdownSignals: signals that stop the emulator (the executable passes SIGINT
    ///     and SIGTERM; in-process users usually pass none and call ``stop()``).
    /// - Throws: ``SesameEmulatorError`` when a port cannot be bound or the import fails.
    public static func start(
        _ configuration: EmulatorConfiguration, gracefulShutdownSignals: [UnixSignal] = []
    ) async throws -> SesameEmulator {
        let logger = configuration.logger
        let authSkew = ClockSkew()
        let databaseSkew = ClockSkew()
        let auth = AccountStore(
            projectId: configuration.projectId, clock: configuration.clock.skewed(by: authSkew), logger: logger)
        let database = DatabaseState(clock: configuration.clock.skewed(by: databaseSkew))
        if let directory = configuration.importDirectory {
            try await EmulatorSnapshot.read(from: directory, auth: auth, database: database)
        }

        let (bound, boundContinuation) = AsyncStream.makeStream(of: (String, Int).self)
        let authEndpoints = AuthEndpoints(
            state: auth, projectId: configuration.projectId,
            fallbackHost: "\(configuration.host):\(configuration.authPort)", clockSkew: authSkew)
        let databaseEndpoints = DatabaseEndpoints(
            state: database, defaultNamespace: configuration.defaultNamespace, clockSkew: databaseSkew)
        let authApp = Self.application(
            name: "auth", endpoints: authEndpoints, host: configuration.host, port: configuration.authPort,
            logger: logger, bound: boundContinuation)
        let databaseApp = Self.application(
            name: "database", endpoints: databaseEndpoints, host: configuration.host, port: configuration.databasePort,
            logger: logger, bound: boundContinuation)
        var services: [any Service] = [authApp, databaseApp]
        var supabaseStore: GoTrueStore?
        if let supabase = configuration.supabase {
            let supabaseSkew = ClockSkew()
            let store = GoTrueStore(configuration: supabase, clock: configuration.clock.skewed(by: supabaseSkew))
            let endpoints = SupabaseEndpoints(
                store: store, fallbackHost: "\(configuration.host):\(supabase.port)", clockSkew: supabaseSkew)
            services.append(
                Self.application(
                    name: "supabase", endpoints: endpoints, host: configuration.host, port: supabase.port,
                    logger: logger,
                    bound: boundContinuation))
            supabaseStore = store
        }
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
            if ports.count == services.count { break }
        }
        guard let authPort = ports["auth"], let databasePort = ports["database"],
            configuration.supabase == nil || ports["supabase"] != nil
        else {
            await group.triggerGracefulShutdown()
            do {
                try await running.value
            } catch {
                throw SesameEmulatorError("sesame-emulator could not start on \(configuration.host): \(error)")
            }
            throw SesameEmulatorError("sesame-emulator stopped before it was ready")
        }
        return SesameEmulator(
            authPort: authPort, databasePort: databasePort, supabasePort: ports["supabase"],
            configuration: configuration,
            group: group, running: running, auth: auth, database: database, supabaseStore: supabaseStore)
    }

    private static func application<E: EmulatorEndpoints>(
        name: String, endpoints: E, host: String, port: Int, logger: Logger,
        bound: AsyncStream<(String, Int)>.Continuation
    ) -> some Service {
        let faults = FaultInjector()
        let router = Router(context: EmulatorRequestContext.self)
        router.add(middleware: EmulatorMiddleware(endpoints: endpoints, faults: faults))
        FaultRoutes(faults: faults, endpoints: endpoints).add(to: router)
        endpoints.addRoutes(to: router)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), serverName: "sesame-emulator"),
            onServerRunning: { channel in
                bound.yield((name, channel.localAddress?.port ?? port))
            },
            logger: logger)
    }

    /// Stops serving: closes idle connections, waits for requests in flight, and returns when
    /// both ports are closed. Calling it again does nothing more.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }

    /// Waits until the emulator stops (through ``stop()`` or a shutdown signal).
    /// - Throws: what the servers failed with, if they failed rather than stopped.
    public func waitUntilStopped() async throws {
        try await running.value
    }

    /// Writes accounts, configuration and every database namespace to `directory` in the
    /// Firebase emulators' export layout, creating it when needed.
    /// - Throws: ``SesameEmulatorError`` naming the directory when a file cannot be written.
    public func export(to directory: String) async throws {
        try await EmulatorSnapshot.write(to: directory, auth: auth, database: database)
    }
}
