import Logging
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameSupabase

/// The backend the configuration names, built: one call for the composition root.
struct Backend: Sendable {
    /// `firebase` or `supabase` (`hello.backend`).
    var name: String
    /// For the ready log line: the backend and where it is (no secret).
    var location: String
    var provider: any RemoteAuthProvider
    var directory: (any UsernameDirectory)?
    /// The one HTTP client of both adapters.
    var transport: AsyncHTTPClientTransport

    /// Shuts the HTTP client down (on exit).
    func shutdown() async {
        await transport.shutdown()
    }
}

enum BackendFactory {
    /// Builds the adapters `backend.provider` chooses, over one shared transport.
    static func make(_ configuration: DaemonConfiguration) -> Backend {
        switch configuration.backend.provider {
        case .firebase:
            let firebase = FirebaseConfiguration(
                apiKey: configuration.apiKey, projectId: configuration.projectId,
                authEmulatorHost: configuration.authEmulatorHost, databaseURL: configuration.databaseURL,
                databaseEmulatorHost: configuration.databaseEmulatorHost,
                requestTimeout: configuration.backend.requestTimeout)
            let transport = AsyncHTTPClientTransport(configuration: firebase)
            let logger = Logger(label: "sesame.firebase")
            return Backend(
                name: "firebase",
                location: configuration.authEmulatorHost.map { "firebase emulator \($0)" } ?? "firebase",
                provider: FirebaseAuthProvider(configuration: firebase, transport: transport, logger: logger),
                directory: FirebaseUsernameDirectory(configuration: firebase, transport: transport, logger: logger),
                transport: transport)
        case .supabase:
            let supabase = SupabaseConfiguration(
                url: configuration.backend.supabaseURL, anonKey: configuration.backend.supabaseAnonKey,
                deleteFunction: configuration.backend.supabaseDeleteFunction,
                requestTimeout: configuration.backend.requestTimeout)
            let transport = AsyncHTTPClientTransport(
                connectTimeout: supabase.connectTimeout, requestTimeout: supabase.requestTimeout)
            let logger = Logger(label: "sesame.supabase")
            return Backend(
                name: "supabase", location: "supabase \(supabase.url)",
                provider: SupabaseAuthProvider(configuration: supabase, transport: transport, logger: logger),
                directory: SupabaseUsernameDirectory(configuration: supabase, transport: transport, logger: logger),
                transport: transport)
        }
    }
}
