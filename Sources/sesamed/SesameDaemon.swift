import ArgumentParser
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SesameCore
import SesameKeyring
import SesameLocalAPI
import SesameService
import SesameSocketServer
import SesameSystemd
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// `sesamed`: composition only. Reads the configuration, builds the adapters, loads the
/// keyring, binds the socket, and runs everything in one `ServiceGroup` (background work,
/// socket server, systemd notifier) until SIGTERM or SIGINT.
@main
struct SesameDaemon: AsyncParsableCommand {
    static let version = SesameVersion.current

    static let configuration = CommandConfiguration(
        commandName: "sesamed",
        abstract: "Owns this machine's account session and serves it to local programs.",
        discussion: """
            sesamed signs in anonymously on first start, keeps the session in an encrypted keyring \
            (or, with session.persistence = "memory", in memory only: kiosks), \
            refreshes ID tokens for every program, and serves line-delimited JSON-RPC on a Unix socket \
            (see docs/protocol.md). It is meant to run under systemd (see docs/systemd.md); run \
            `make run` in the source tree to try it with a local emulator.

            Exit status: 0 after SIGTERM; 65 when the keyring cannot be read or decrypted; \
            75 when another process holds the keyring's lock; 78 for a configuration error, \
            or a state directory, keyring, key or lock file that is not safe to use.
            """,
        version: version)

    @Option(name: .long, help: ArgumentHelp("The configuration file (TOML); see etc/sesamed.toml.", valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("The Unix socket to listen on (overrides socket.path).", valueName: "path"))
    var socket: String?

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "Where the keyring lives (default: $STATE_DIRECTORY, /var/lib/sesame or $XDG_STATE_HOME/sesame).",
            valueName: "dir"))
    var stateDirectory: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    /// ArgumentParser's `main()`, with Swift concurrency moved onto the event loop first: on the
    /// main actor, before any task hops to the global executor (``EventLoopConcurrency``).
    @MainActor
    static func main() async {
        // One event loop for the socket, the HTTP client and now every task: the local API's
        // work is small (one loop answers ~190,000 requests a second, docs/BENCHMARKS.md), one
        // thread keeps every connection's notifications on the loop that writes them, and it is
        // a thread (and its stack) fewer. Set before anything uses the shared group.
        NIOSingletons.groupLoopCountSuggestion = 1
        // Every task and every sleep on that loop: an idle daemon then wakes only for its own
        // timers (EventLoopConcurrency explains libdispatch's once-a-second monitor).
        EventLoopConcurrency.install()
        do {
            var command = try parseAsRoot()
            if var daemon = command as? Self {
                try await daemon.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let factory = JournalLogHandler.factory(identifier: "sesamed", environment: environment, logLevel: level)
        LoggingSystem.bootstrap { label in factory(label, nil) }
        let logger = Logger(label: "sesamed")
        // Trapped before anything slow happens: a SIGTERM during start-up (keyring, bind) is
        // kept and stops the daemon cleanly once its services run, instead of killing it (143).
        let stopSignals = await UnixSignalsSequence(trapping: .sigterm, .sigint)

        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(
                file: config, socket: socket, stateDirectory: stateDirectory, environment: environment, uid: getuid())
        } catch {
            throw Self.fail(error.message + (config == nil ? " (pass --config FILE)" : ""), status: 78)
        }
        // Read before the keyring is opened: a token file refused (78) stops nothing half-started.
        let provisioningToken = try Self.provisioningToken(configuration, logger: logger)

        // With `session.persistence = "memory"` no keyring is opened: nothing is ever written.
        let keyring: EncryptedFileSessionStore?
        do {
            keyring =
                configuration.persistence == .disk
                ? try EncryptedFileSessionStore.open(
                    path: configuration.keyringPath, environment: environment, logger: Logger(label: "sesame.keyring"))
                : nil
        } catch {
            throw Self.fail(error.message, status: Self.exitStatus(for: error))
        }
        let store: any SessionStore = keyring ?? DiscardingSessionStore()

        if let warning = configuration.backend.ignoredSectionWarning { logger.warning("\(warning)") }
        let metrics = configuration.metricsTextfilePath.map { _ in DaemonMetrics() }
        // One steady timeline for the service and every adapter that stamps a token, so a jump
        // of the calendar neither expires a valid token early nor keeps an expired one.
        let clock = SteadyClock()
        let backend = BackendFactory.make(configuration, metrics: metrics, now: { clock.date })
        let service = SessionService(
            provider: backend.provider, store: store, directory: backend.directory,
            deviceAuthorization: backend.deviceAuthorization,
            clock: clock,
            configuration: SessionServiceConfiguration(
                anonymousFirst: configuration.anonymousFirst, refreshMargin: TimeInterval(configuration.refreshMargin),
                mergeHold: TimeInterval(configuration.mergeHold), usernamesRequired: configuration.usernamesRequired,
                reservedUsernames: configuration.reservedUsernames,
                firstGuestWindow: TimeInterval(configuration.firstGuestWindow)),
            logger: Logger(label: "sesame.session"))

        do {
            try await service.start()
        } catch {
            await keyring?.close()
            await backend.shutdown()
            throw Self.fail(error.message, status: Self.exitStatus(for: error))
        }

        let activation = SocketActivation(environment: environment)
        let endpoint: LocalAPIServerConfiguration.Endpoint =
            activation.firstUnixStreamListener().map { .adopted(descriptor: $0) }
            ?? .path(configuration.socketPath, mode: configuration.socketMode)
        let access = AccessPolicy(
            daemonUid: getuid(), managers: configuration.managers.compactMap(AccessPolicy.Principal.init),
            readers: configuration.readers.compactMap(AccessPolicy.Principal.init),
            observers: configuration.observers.compactMap(AccessPolicy.Principal.init),
            rootInContainers: configuration.rootInContainers)
        var serverConfiguration = LocalAPIServerConfiguration(
            endpoint: endpoint, maximumConnections: connectionLimit(configuration, logger: logger),
            maximumConnectionsPerUid: configuration.maxConnectionsPerUid, idleTimeout: configuration.idleTimeout,
            socketGroup: configuration.socketGroup, access: access, version: Self.version)
        // The grants remembered `always`, per uid and executable, beside the keyring.
        serverConfiguration.accessGrantsPath = configuration.stateDirectory + "/access-grants.json"
        if let metrics {
            serverConfiguration.connectionsChanged = { @Sendable count in metrics.recordConnections(count) }
        }
        let server = LocalAPIServer(
            configuration: serverConfiguration, service: service, instance: UUID().uuidString.lowercased(),
            logger: Logger(label: "sesame.socket"))
        let systemd = SystemdLifecycle(
            notifier: SystemdNotifier(environment: environment), events: await service.events(),
            watchdogLoop: MultiThreadedEventLoopGroup.singleton.next(), logger: logger)

        do {
            try await server.bind()
        } catch {
            await keyring?.close()
            await backend.shutdown()
            throw Self.fail("\(error)", status: 78)
        }
        logger.info(
            "sesamed is ready",
            metadata: [
                "socket": "\(endpoint)", "keyring": "\(keyring == nil ? "none (memory)" : configuration.keyringPath)",
                "backend": "\(backend.location)",
            ])

        let metricsServices = await metricsFile(configuration, metrics: metrics, service: service)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    // Stopped in reverse order: systemd hears STOPPING=1 first, then clients hear
                    // `shutdown`, then the background work ends.
                    .init(service: SessionMaintenance(service)),
                    .init(service: server),
                    .init(service: systemd),
                    .init(
                        service: SleepAndNetwork(
                            service: service, server: server,
                            logindBusAddress: environment["SESAME_LOGIND_BUS_ADDRESS"],
                            logger: Logger(label: "sesame.machine"))),
                ] + (await idleMemory(configuration, server: server, service: service))
                    + metricsServices,
                logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { watcher in
            watcher.addTask {
                for await _ in stopSignals {
                    await group.triggerGracefulShutdown()
                    return
                }
            }
            if let provisioningToken {
                watcher.addTask { await Self.provision(provisioningToken, service: service, logger: logger) }
            }
            try await group.run()
            watcher.cancelAll()
        }
        if configuration.persistence == .memory { await service.accounts.endSessionAtStop() }
        await keyring?.close()
        await backend.shutdown()
        logger.info("sesamed stopped")
    }

    /// `socket.max_connections`, lowered (with a warning) when the open-files limit, raised to
    /// its hard limit first, leaves too few descriptors beside the daemon's own reserve.
    func connectionLimit(_ configuration: DaemonConfiguration, logger: Logger) -> Int {
        let budget = DescriptorBudget(
            limit: DescriptorBudget.raiseSoftLimit(), configured: configuration.maxConnections)
        if budget.isLowered {
            logger.warning(
                "Fewer connections than socket.max_connections: the open-files limit leaves room for fewer (raise LimitNOFILE=)",
                metadata: [
                    "socket.max_connections": "\(budget.configured)", "connections": "\(budget.effectiveMaximum)",
                    "limit.nofile": "\(budget.limit)", "reserve": "\(DescriptorBudget.reserve)",
                ])
        }
        return budget.effectiveMaximum
    }

    /// The idle memory release, unless `memory.release_when_idle` is 0.
    func idleMemory(
        _ configuration: DaemonConfiguration, server: LocalAPIServer, service: SessionService
    ) async -> [ServiceGroupConfiguration.ServiceConfiguration] {
        guard configuration.releaseWhenIdle > 0 else { return [] }
        let requests = server.activity
        let activity: @Sendable () async -> UInt64 = {
            requests.count &+ UInt64(await service.emittedEvents)
        }
        // A session event (a refresh, a change another process made) ends the wait as a request does.
        await service.publish { _ in requests.wake() }
        return [
            .init(
                service: IdleMemory(
                    delay: .seconds(configuration.releaseWhenIdle), activity: activity,
                    nextActivity: { count in
                        await requests.waitForActivity(after: count &- UInt64(await service.emittedEvents))
                    },
                    logger: Logger(label: "sesame.memory")))
        ]
    }

    /// The metrics file's writer, when `metrics.textfile_path` is set.
    func metricsFile(
        _ configuration: DaemonConfiguration, metrics: DaemonMetrics?, service: SessionService
    ) async -> [ServiceGroupConfiguration.ServiceConfiguration] {
        guard let path = configuration.metricsTextfilePath, let metrics else { return [] }
        return [
            .init(
                service: MetricsTextfile(
                    path: path, metrics: metrics, events: await service.events(),
                    logger: Logger(label: "sesame.metrics")))
        ]
    }

    /// Prints one line for people and returns the exit status to throw.
    static func fail(_ message: String, status: Int32) -> ExitCode {
        FileHandle.standardError.write(Data("sesamed: \(message)\n".utf8))
        return ExitCode(status)
    }

    static func exitStatus(for error: SessionStoreError) -> Int32 {
        switch error.kind {
        case .unreadable: 65  // EX_DATAERR
        case .locked: 75  // EX_TEMPFAIL
        case .io: 74  // EX_IOERR
        case .unsafe: 78  // EX_CONFIG: a link, FIFO, owner or mode to fix
        }
    }
}
