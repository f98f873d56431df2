import SesameLocalAPI

/// What Supabase's API gateway does before GoTrue and PostgREST see a request, as the local
/// stack of `supabase start` configures it (its Kong template and `ApiProxy`):
///
/// - the `apikey` header (or `?apikey=`) must hold one of the project's keys: the opaque
///   publishable or secret key of new projects, or the legacy anon or service_role JWT;
/// - an `Authorization` header that is absent or holds an opaque key (`Bearer sb_…`, as the
///   official clients send the key they were made with) is replaced: by the service_role JWT
///   for the secret key, the anon JWT for the publishable key, else by the `apikey` value; any
///   other `Authorization` (a user's access token) passes through untouched.
///
/// Kong's open routes (`/auth/v1/verify`, `callback`, `authorize`, …) skip both steps.
extension SupabaseEndpoints {
    /// The role an API key stands for, or nil for a key of no use here.
    func apiKeyRole(_ key: String) -> String? {
        let supabase = store.configuration
        if key == supabase.publishableKey { return "anon" }
        if key == supabase.secretKey { return "service_role" }
        guard !key.hasPrefix("sb_") else { return nil }
        let role = (try? store.jwt.verify(key, now: store.clock.milliseconds() / 1000))?["role"]?.stringValue
        return role == "anon" || role == "service_role" ? role : nil
    }

    /// The gateway's key check: a 401 in Kong's words, or nil to go on.
    func checkAPIKey(_ request: EmulatorRequest) -> EmulatorReply? {
        guard let key = request.header("apikey") ?? request.query["apikey"], !key.isEmpty else {
            return .json(
                [
                    "message": "No API key found in request",
                    "hint": "Send the publishable (or anon) key printed at start in an apikey header.",
                ],
                status: 401)
        }
        guard apiKeyRole(key) != nil else {
            return .json(
                [
                    "message": "Invalid API key",
                    "hint": "Use a key the emulator printed at start: publishable, secret, anon or service_role.",
                ],
                status: 401)
        }
        return nil
    }

    /// The request as the gateway hands it on: `Authorization` rewritten for an opaque key.
    func gateway(_ request: EmulatorRequest) -> EmulatorRequest {
        let auth = Self.subpath(request.path, under: GoTrueRouter.prefix)
        let gated =
            auth.map { !Self.openAuthPaths.contains($0) } ?? request.path.hasPrefix(PostgRESTRouter.prefix + "/")
        guard gated, let key = request.header("apikey") ?? request.query["apikey"], !key.isEmpty else {
            return request
        }
        if let authorization = request.header("authorization"), !authorization.hasPrefix("Bearer sb_") {
            return request
        }
        var forwarded = request
        switch key {
        case store.configuration.secretKey:
            forwarded.headers["authorization"] = "Bearer " + store.jwt.apiKey(role: "service_role")
        case store.configuration.publishableKey:
            forwarded.headers["authorization"] = "Bearer " + store.jwt.apiKey(role: "anon")
        default: forwarded.headers["authorization"] = key
        }
        return forwarded
    }
}
