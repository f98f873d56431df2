import HTTPTypes

/// `/factors` (TOTP second factors) and `/reauthenticate`, behind a user's bearer.
extension GoTrueOperation {
    static let mfa: [GoTrueOperation] = [
        GoTrueOperation(.post, "factors") { store, call throws(GoTrueError) in
            try await store.enrollFactor(call.body(), bearer: call.bearer, host: host(of: call.origin))
        },
        GoTrueOperation(.post, "factors/{id}/challenge") { store, call throws(GoTrueError) in
            try await limit(.challenge, store, call)
            return try await store.challengeFactor(call.parameter("id"), bearer: call.bearer)
        },
        GoTrueOperation(.post, "factors/{id}/verify") { store, call throws(GoTrueError) in
            try await limit(.verify, store, call)
            return try await store.verifyFactor(
                call.parameter("id"), call.body(), bearer: call.bearer, issuer: call.issuer)
        },
        GoTrueOperation(.delete, "factors/{id}") { store, call throws(GoTrueError) in
            try await store.unenrollFactor(call.parameter("id"), bearer: call.bearer)
        },
        GoTrueOperation(.get, "reauthenticate") { store, call throws(GoTrueError) in
            try await store.reauthenticate(bearer: call.bearer, origin: call.origin)
        },
    ]

    /// GoTrue's MFA bucket, keyed by the first value of the rate-limit header; no header
    /// configured, or none sent, and nothing is limited (as GoTrue's `performRateLimiting`).
    static func limit(
        _ endpoint: MFARateLimiter.Endpoint, _ store: GoTrueStore, _ call: GoTrueCall
    ) async throws(GoTrueError) {
        let header = store.configuration.rateLimitHeader
        guard let client = SupabaseEndpoints.rateLimitClient(call.request, header: header) else { return }
        guard await store.allowMFA(endpoint, client: client) else { throw .overRequestRateLimit }
    }

    /// The host of `http://host:port` without the port: the default TOTP issuer (GoTrue uses the site URL's host).
    static func host(of origin: String) -> String {
        let authority = origin.split(separator: "/").last.map(String.init) ?? origin
        guard let colon = authority.lastIndex(of: ":") else { return authority }
        return String(authority[..<colon])
    }
}
