/// One GoTrue server's own settings: its port's configuration and the keys that sign and verify its tokens.
/// Several ports may be servers over the same users, sessions and tables (one database behind several GoTrue
/// servers, as supabase-py's four test servers share one Postgres): ``GoTrueStore`` keeps the state once and
/// reads the settings of the request's port from ``current``, which each port's routes bind for the request.
struct GoTrueServer: Sendable {
    let configuration: SupabaseEmulatorConfiguration
    let jwt: SupabaseJWT

    init(configuration: SupabaseEmulatorConfiguration, signingKey: SupabaseSigningKey?) {
        self.configuration = configuration
        self.jwt = SupabaseJWT(secret: configuration.jwtSecret, signingKey: signingKey, keySet: configuration.jwtKeys)
    }

    /// The server handling the current request; unbound outside a request (the main port's then).
    @TaskLocal static var current: GoTrueServer?

    /// Where GoTrue's routes live on this port: `/auth/v1` behind the gateway, `` alone.
    var pathPrefix: String { configuration.layout == .gateway ? GoTrueOperation.prefix : "" }
}
