import HTTPTypes
import Hummingbird
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
        let supabase = server.configuration
        if key == supabase.publishableKey { return "anon" }
        if key == supabase.secretKey { return "service_role" }
        guard !key.hasPrefix("sb_") else { return nil }
        let role = (try? server.jwt.verify(key, now: store.clock.milliseconds() / 1000))?["role"]?.stringValue
        return role == "anon" || role == "service_role" ? role : nil
    }

    /// The `apikey` header, else the `apikey` query parameter; nil when absent or empty.
    static func apiKey(_ request: Request) -> String? {
        (request.header("apikey") ?? request.queryFields["apikey"]).nonEmpty
    }

    /// The gateway's refusal of the request's key, in Kong's words; nil to go on.
    func apiKeyRefusal(_ request: Request) -> SupabaseGatewayError? {
        guard let key = Self.apiKey(request) else {
            return SupabaseGatewayError(
                message: "No API key found in request",
                hint: "Send the publishable (or anon) key printed at start in an apikey header.")
        }
        guard apiKeyRole(key) != nil else {
            return SupabaseGatewayError(
                message: "Invalid API key",
                hint: "Use a key the emulator printed at start: publishable, secret, anon or service_role.")
        }
        return nil
    }

    /// The gateway's key check: ``SupabaseGatewayError`` (401) for a missing or unknown key.
    func checkAPIKey(_ request: Request) throws(SupabaseGatewayError) {
        guard server.configuration.layout == .gateway else { return }
        if let refusal = apiKeyRefusal(request) { throw refusal }
    }

    /// The request as the gateway hands it on: `Authorization` rewritten for an opaque key.
    func gateway(_ request: Request) -> Request {
        guard server.configuration.layout == .gateway else { return request }
        let path = request.decodedPath
        let auth = Self.subpath(path, under: GoTrueOperation.prefix)
        let gated = auth.map { !Self.openAuthPaths.contains($0) } ?? path.hasPrefix(PostgRESTOperation.prefix + "/")
        guard gated, let key = Self.apiKey(request) else { return request }
        if let authorization = request.header("authorization"), !authorization.hasPrefix("Bearer sb_") {
            return request
        }
        var head = request.head
        switch key {
        case server.configuration.secretKey:
            head.headerFields[.authorization] = "Bearer " + server.jwt.apiKey(role: "service_role")
        case server.configuration.publishableKey:
            head.headerFields[.authorization] = "Bearer " + server.jwt.apiKey(role: "anon")
        default: head.headerFields[.authorization] = key
        }
        return Request(head: head, body: request.body)
    }
}

/// A request the gateway turns away before GoTrue or PostgREST sees it: 401, Kong's `message`, our `hint`.
struct SupabaseGatewayError: HTTPResponseError {
    var message: String
    var hint: String

    var status: HTTPResponse.Status { .unauthorized }

    var response: Response {
        Response.json(["message": .string(message), "hint": .string(hint)] as JSONValue, status: status)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
