import Logging
import NIOHTTP1
import SesameCore
import SesameHTTP

/// The requests of Identity Toolkit (JSON) and Secure Token (form), sent through the shared
/// pipeline with the Firebase error table. What to send and what an answer means is
/// ``FirebaseAuthProvider``'s business.
///
/// Never sends an `Authorization` header (the emulator reads `Bearer owner` as admin) and
/// always sends the API key as `?key=`. Only a 200 is an answer.
struct IdentityToolkitClient: Sendable {
    let urls: FirebaseAuthURLs
    let pipeline: JSONEndpointClient<FirebaseErrorClassifier>

    var logger: Logger { pipeline.logger }

    /// POSTs `body` as JSON to the context's endpoint and decodes a 200 answer as `Response`.
    func post<Body: Encodable, Response: Decodable>(
        _ body: Body, context: FirebaseCallContext, as response: Response.Type
    ) async throws(RemoteAuthError) -> Response {
        let request = HTTPRequest.json(
            name: context.endpoint.name, method: .POST, url: urls.url(for: context.endpoint), body: body)
        return try await pipeline.answer(request, as: response, context: context, accepting: [200])
    }

    /// POSTs `fields` as `application/x-www-form-urlencoded` (Secure Token).
    func postForm<Response: Decodable>(
        _ fields: [(String, String)], context: FirebaseCallContext, as response: Response.Type
    ) async throws(RemoteAuthError) -> Response {
        let request = HTTPRequest.form(
            name: context.endpoint.name, method: .POST, url: urls.url(for: context.endpoint), fields: fields)
        return try await pipeline.answer(request, as: response, context: context, accepting: [200])
    }
}
