import Foundation
import Logging
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameOAuth
import SesameSupabase

/// The backend the configuration names, built: one call for the composition root.
struct Backend: Sendable {
    /// `firebase` or `supabase` (`hello.backend`).
    var name: String
    /// For the ready log line: the backend and where it is (no secret).
    var location: String
    var provider: any RemoteAuthProvider
    var directory: (any UsernameDirectory)?
    /// The identity providers' device flow endpoints (`[oauth."<providerId>"]`), over the same
    /// transport.
    var deviceAuthorization: OAuthDeviceClient
    /// The one HTTP client of every adapter.
    var transport: AsyncHTTPClientTransport

    /// Shuts the HTTP client down (on exit).
    func shutdown() async {
        await transport.shutdown()
    }
}

enum BackendFactory {
    /// Builds the adapters `backend.provider` chooses, over one shared transport (counted in
    /// `metrics` when there are metrics); `now` stamps tokens and device flows' deadlines (the
    /// session service's steady clock).
    static func make(
        _ configuration: DaemonConfiguration, metrics: DaemonMetrics? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> Backend {
        switch configuration.backend.provider {
        case .firebase:
            let firebase = FirebaseConfiguration(
                apiKey: configuration.apiKey, projectId: configuration.projectId,
                authEmulatorHost: configuration.authEmulatorHost, databaseURL: configuration.databaseURL,
                databaseEmulatorHost: configuration.databaseEmulatorHost,
                requestTimeout: configuration.backend.requestTimeout)
            let client = AsyncHTTPClientTransport(configuration: firebase)
            let transport = metered(client, metrics)
            let logger = Logger(label: "sesame.firebase")
            return Backend(
                name: "firebase",
                location: configuration.authEmulatorHost.map { "firebase emulator \($0)" } ?? "firebase",
                provider: FirebaseAuthProvider(configuration: firebase, transport: transport, logger: logger, now: now),
                directory: FirebaseUsernameDirectory(configuration: firebase, transport: transport, logger: logger),
                deviceAuthorization: deviceAuthorization(configuration, transport: transport, now: now),
                transport: client)
        case .supabase:
            let supabase = SupabaseConfiguration(
                url: configuration.backend.supabaseURL, anonKey: configuration.backend.supabaseAnonKey,
                deleteFunction: configuration.backend.supabaseDeleteFunction,
                requestTimeout: configuration.backend.requestTimeout)
            let client = AsyncHTTPClientTransport(
                connectTimeout: supabase.connectTimeout, requestTimeout: supabase.requestTimeout)
            let transport = metered(client, metrics)
            let logger = Logger(label: "sesame.supabase")
            return Backend(
                name: "supabase", location: "supabase \(supabase.url)",
                provider: SupabaseAuthProvider(configuration: supabase, transport: transport, logger: logger, now: now),
                directory: SupabaseUsernameDirectory(configuration: supabase, transport: transport, logger: logger),
                deviceAuthorization: deviceAuthorization(configuration, transport: transport, now: now),
                transport: client)
        }
    }

    /// `transport`, counted in `metrics` when there are metrics.
    static func metered(_ transport: any HTTPTransport, _ metrics: DaemonMetrics?) -> any HTTPTransport {
        metrics.map { MeteredTransport(wrapped: transport, metrics: $0) } ?? transport
    }

    /// The device flow client of the `[oauth]` tables, pointed at the emulator's fake providers
    /// when the backend is an emulator.
    static func deviceAuthorization(
        _ configuration: DaemonConfiguration, transport: any HTTPTransport,
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> OAuthDeviceClient {
        OAuthDeviceClient(
            providers: configuration.oauthProviders, emulatorBase: emulatorBase(configuration), transport: transport,
            logger: Logger(label: "sesame.oauth"), now: now)
    }

    /// Where an emulator serves its fake identity providers: `http://<firebase.auth_emulator_host>`,
    /// or `supabase.url` when its host is loopback (`127.0.0.1`, `localhost`, `::1`); nil for a
    /// real backend.
    static func emulatorBase(_ configuration: DaemonConfiguration) -> String? {
        switch configuration.backend.provider {
        case .firebase:
            return configuration.authEmulatorHost.map { "http://\($0)" }
        case .supabase:
            let url = configuration.backend.supabaseURL.trimmingCharacters(in: .whitespaces)
            guard let host = URLComponents(string: url)?.host?.lowercased() else { return nil }
            let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
            return loopback ? url : nil
        }
    }
}
