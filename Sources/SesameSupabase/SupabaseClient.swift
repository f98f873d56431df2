import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SesameCore
import SesameHTTP

/// Builds GoTrue (`/auth/v1`) and PostgREST (`/rest/v1`) requests, sends them once, and decodes
/// or classifies their answers. Knows HTTP and JSON; what to send and what an answer means is
/// the provider's and the directory's business.
///
/// Every request carries `apikey` and `X-Supabase-Api-Version: 2024-01-01`. User calls carry
/// `Authorization: Bearer <access token>`; anonymous database calls carry the anon key as the
/// bearer; anonymous auth calls carry none. Logs at debug only the call name, status and code.
struct SupabaseClient: Sendable {
    let configuration: SupabaseConfiguration
    let transport: any HTTPTransport
    let logger: Logger
    let now: @Sendable () -> Date

    /// Who a request is made as.
    enum Bearer: Sendable {
        /// No `Authorization` header (anonymous auth calls).
        case nobody
        case anonKey
        case user(IDToken)
    }

    /// `<auth base>/<path>?<query>`.
    func authURL(_ path: String, query: [(String, String)] = []) -> String {
        url(configuration.authBase + "/" + path, query: query)
    }

    /// `<rest base>/<path>?<query>`.
    func restURL(_ path: String, query: [(String, String)] = []) -> String {
        url(configuration.restBase + "/" + path, query: query)
    }

    private func url(_ base: String, query: [(String, String)]) -> String {
        guard !query.isEmpty else { return base }
        return base + "?" + query.map { "\($0.0)=\(PercentEncoding.queryValue($0.1))" }.joined(separator: "&")
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

    /// Sends `request`; a 2xx answer is returned, anything else thrown as classified.
    func send(_ request: HTTPRequest, context: SupabaseCallContext) async throws(RemoteAuthError) -> HTTPResponse {
        let answer: HTTPResponse
        do {
            answer = try await transport.send(request)
        } catch {
            let failure: RemoteAuthError =
                if case .responseTooLarge(let limit) = error {
                    .malformedResponse("\(request.name): response body larger than \(limit) bytes")
                } else {
                    .transport(error.description)
                }
            logger.debug(
                "supabase call failed",
                metadata: ["supabase.call": "\(request.name)", "supabase.failure": "\(failure)"])
            throw failure
        }
        guard answer.isSuccess else {
            let body = SupabaseErrorBody.parse(answer.bytes, headers: answer.headers)
            logger.debug(
                "supabase call refused",
                metadata: [
                    "supabase.call": "\(request.name)", "http.status": "\(answer.status)",
                    "supabase.error_code": "\(body?.code ?? "-")",
                ])
            throw SupabaseErrorClassifier.classify(
                status: answer.status, body: body, context: context,
                retryAfterMs: RetryAfter.milliseconds(answer.headers.first(name: "Retry-After"), now: now())
                    ?? body?.waitSeconds.map { $0 * 1000 })
        }
        // GoTrue and PostgREST answer JSON or nothing; any other body (a proxy's page) is no
        // proof that the call was carried out.
        if answer.bytes.contains(where: { !$0.isJSONWhitespace }), !JSONBody.isJSON(answer.bytes) {
            logger.debug("supabase call answered garbage", metadata: ["supabase.call": "\(request.name)"])
            throw .malformedResponse("\(request.name): the answer is not JSON")
        }
        logger.debug(
            "supabase call succeeded",
            metadata: ["supabase.call": "\(request.name)", "http.status": "\(answer.status)"])
        return answer
    }

    /// Sends `request` and decodes its 2xx answer as `Response`.
    func send<Response: Decodable>(
        _ request: HTTPRequest, context: SupabaseCallContext, as type: Response.Type
    ) async throws(RemoteAuthError) -> Response {
        let answer = try await send(request, context: context)
        do {
            return try JSONBody.decode(type, from: answer.bytes)
        } catch {
            throw .malformedResponse("\(request.name): \(error.summary)")
        }
    }
}

extension UInt8 {
    /// Space, tab, line feed or carriage return: what may surround or make up an empty body.
    fileprivate var isJSONWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
