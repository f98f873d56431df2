import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SesameCore
import SesameHTTP

/// Sends Identity Toolkit (JSON) and Secure Token (form) requests and decodes or classifies
/// their answers. Knows HTTP and JSON; what to send and what an answer means is
/// ``FirebaseAuthProvider``'s business.
///
/// Never sends an `Authorization` header (the emulator reads `Bearer owner` as admin) and
/// always sends the API key as `?key=`. Logs at debug only the endpoint, status and error code.
struct IdentityToolkitClient: Sendable {
    let urls: FirebaseAuthURLs
    let transport: any HTTPTransport
    let logger: Logger
    let now: @Sendable () -> Date

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// POSTs `body` as JSON to the context's endpoint and decodes a 200 answer as `Response`.
    func post<Body: Encodable, Response: Decodable>(
        _ body: Body, context: FirebaseCallContext, as response: Response.Type
    ) async throws(RemoteAuthError) -> Response {
        let data: Data
        do {
            data = try Self.encoder.encode(body)
        } catch {
            throw .malformedResponse("\(context.endpoint.name): request could not be encoded")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        let request = HTTPRequest(
            name: context.endpoint.name, method: .POST, url: urls.url(for: context.endpoint),
            headers: headers, body: ByteBuffer(bytes: data)
        )
        return try await send(request, context: context, as: response)
    }

    /// POSTs `fields` as `application/x-www-form-urlencoded` (Secure Token).
    func postForm<Response: Decodable>(
        _ fields: [(String, String)], context: FirebaseCallContext, as response: Response.Type
    ) async throws(RemoteAuthError) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let request = HTTPRequest(
            name: context.endpoint.name, method: .POST, url: urls.url(for: context.endpoint),
            headers: headers, body: ByteBuffer(string: PercentEncoding.form(fields))
        )
        return try await send(request, context: context, as: response)
    }

    private func send<Response: Decodable>(
        _ request: HTTPRequest, context: FirebaseCallContext, as response: Response.Type
    ) async throws(RemoteAuthError) -> Response {
        let answer: HTTPResponse
        do {
            answer = try await transport.exchange(request)
        } catch {
            logger.debug(
                "firebase call failed",
                metadata: ["firebase.endpoint": "\(request.name)", "firebase.failure": "\(error)"]
            )
            throw error
        }
        let bytes = answer.bytes
        guard answer.status == 200 else {
            let failure = FirebaseErrorClassifier.classify(
                status: answer.status, body: bytes, context: context, retryAfterMs: answer.retryAfterMs(now: now()))
            logger.debug(
                "firebase call refused",
                metadata: [
                    "firebase.endpoint": "\(request.name)", "http.status": "\(answer.status)",
                    "firebase.error_code": "\(FirebaseErrorEnvelope.parse(bytes)?.code?.rawValue ?? "-")",
                ]
            )
            throw failure
        }
        logger.debug(
            "firebase call succeeded", metadata: ["firebase.endpoint": "\(request.name)", "http.status": "200"])
        do {
            return try JSONDecoder().decode(Response.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw .malformedResponse("\(request.name): \(JSONBody.summary(of: error))")
        } catch {
            throw .malformedResponse("\(request.name): unreadable answer")
        }
    }
}
