import Foundation
import Logging
import NIOHTTP1
import SesameCore
import SesameHTTP

/// Builds GoTrue (`/auth/v1`) and PostgREST (`/rest/v1`) requests and sends them through the
/// shared pipeline with the Supabase error table. What to send and what an answer means is the
/// provider's and the directory's business.
///
/// Every request carries `apikey` and `X-Supabase-Api-Version: 2024-01-01`. User calls carry
/// `Authorization: Bearer <access token>`; anonymous database calls carry the anon key as the
/// bearer; anonymous auth calls carry none. Logs at debug only the call name, status and code.
struct SupabaseClient: Sendable {
    let configuration: SupabaseConfiguration
    let pipeline: JSONEndpointClient<SupabaseErrorClassifier>

    init(
        configuration: SupabaseConfiguration, transport: any HTTPTransport, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.pipeline = JSONEndpointClient(transport: transport, logger: logger, now: now)
    }

    /// The clock that stamps tokens.
    var now: @Sendable () -> Date { pipeline.now }

    /// Who a request is made as.
    enum Bearer: Sendable {
        /// No `Authorization` header (anonymous auth calls).
        case nobody
        case anonKey
        case user(IDToken)
    }

    /// `<auth base>/<path>?<query>`.
    func authURL(_ path: String, query: [(String, String)] = []) -> String {
        PercentEncoding.url(configuration.authBase + "/" + path, query: query)
    }

    /// `<rest base>/<path>?<query>`.
    func restURL(_ path: String, query: [(String, String)] = []) -> String {
        PercentEncoding.url(configuration.restBase + "/" + path, query: query)
    }

    /// A request with the project's headers, and `body` as JSON when given.
    func request(
        _ name: String, _ method: HTTPMethod, url: String, bearer: Bearer, body: (any Encodable)? = nil,
        headers extra: [(String, String)] = []
    ) -> HTTPRequest {
        var headers = HTTPHeaders()
        if !configuration.anonKey.isEmpty { headers.add(name: "apikey", value: configuration.anonKey) }
        headers.add(name: "X-Supabase-Api-Version", value: SupabaseConfiguration.apiVersion)
        headers.add(name: "Accept", value: "application/json")
        switch bearer {
        case .nobody: break
        case .anonKey: headers.add(name: "Authorization", value: "Bearer \(configuration.anonKey)")
        case .user(let token): headers.add(name: "Authorization", value: "Bearer \(token.rawValue)")
        }
        for (name, value) in extra { headers.add(name: name, value: value) }
        guard let body else { return HTTPRequest(name: name, method: method, url: url, headers: headers) }
        return HTTPRequest.json(name: name, method: method, url: url, headers: headers, body: body)
    }

    /// Sends `request`; a 2xx answer must be JSON or empty (a proxy's page is no proof that
    /// the call was carried out), anything else is thrown as classified.
    func send(_ request: HTTPRequest, context: SupabaseCallContext) async throws(RemoteAuthError) {
        _ = try await pipeline.answer(request, as: NoContent.self, context: context)
    }

    /// Sends `request` and decodes its 2xx answer as `Response`.
    func send<Response: Decodable>(
        _ request: HTTPRequest, context: SupabaseCallContext, as type: Response.Type
    ) async throws(RemoteAuthError) -> Response {
        try await pipeline.answer(request, as: type, context: context)
    }
}
