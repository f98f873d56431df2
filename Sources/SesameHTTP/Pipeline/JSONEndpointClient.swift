import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SesameCore

/// The one HTTP+JSON pipeline of the backend adapters: sends an ``HTTPRequest`` once through
/// an ``HTTPTransport``, maps a transport failure, reads `Retry-After`, decodes a refusal's
/// error body once and hands it to the adapter's ``BackendErrorClassifier``, decodes an
/// accepted answer once, and logs one line per call.
///
/// The log line (debug) carries the call's name, the HTTP status, the backend's error code and
/// the failure's kind or the wrong field: never a URL, a header or a body, which carry keys,
/// tokens, passwords, codes and links.
public struct JSONEndpointClient<Classifier: BackendErrorClassifier>: Sendable {
    public let transport: any HTTPTransport
    public let logger: Logger
    /// Measures an HTTP-date `Retry-After`.
    public let now: @Sendable () -> Date

    public init(transport: any HTTPTransport, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.transport = transport
        self.logger = logger
        self.now = now
    }

    /// Sends `request` and decodes its accepted answer as `Answer`.
    /// - Parameters:
    ///   - accepted: the statuses that are answers; nil for any 2xx. Any other is refused.
    ///   - mismatch: what to call a JSON answer of another shape (`not a uid`); nil names the
    ///     wrong field.
    /// - Throws: the classifier's error for a refusal; `malformedResponse` for an answer that
    ///   does not decode; `transport` when no complete answer came.
    public func answer<Answer: Decodable>(
        _ request: HTTPRequest, as type: Answer.Type, context: Classifier.Context, accepting accepted: Set<Int>? = nil,
        mismatch: String? = nil
    ) async throws(RemoteAuthError) -> Answer {
        let response = try await exchange(request, context: context, accepting: accepted)
        do {
            let answer = try Self.decode(type, from: response, call: request.name, mismatch: mismatch)
            log("answered", request, response)
            return answer
        } catch {
            log("answered unreadably", request, response, ["\(Classifier.backend).failure": "\(error)"])
            throw error
        }
    }

    /// Sends `request` and returns its accepted answer undecoded, for calls that read the
    /// status or headers (a conditional write's 412, an `ETag`).
    public func response(
        _ request: HTTPRequest, context: Classifier.Context, accepting accepted: Set<Int>? = nil
    ) async throws(RemoteAuthError) -> HTTPResponse {
        let response = try await exchange(request, context: context, accepting: accepted)
        log("answered", request, response)
        return response
    }

    /// What the classifier makes of `response` as a refusal of `call`: for an answer a caller
    /// accepted and then found to be a refusal after all.
    public func refusal(_ response: HTTPResponse, call: String, context: Classifier.Context) -> RemoteAuthError {
        Classifier.classify(failure(response, call: call), context: context)
    }

    /// `response`'s body as `type`. An empty body is ``NoContent``; any other must be JSON.
    /// - Throws: `malformedResponse("<call>: not JSON")`, or `"<call>: <mismatch>"` (else the
    ///   wrong field) for JSON of another shape.
    public static func decode<Answer: Decodable>(
        _ type: Answer.Type, from response: HTTPResponse, call: String, mismatch: String? = nil
    ) throws(RemoteAuthError) -> Answer {
        if let nothing = NoContent() as? Answer, response.body.readableBytesView.allSatisfy(\.isJSONWhitespace) {
            return nothing
        }
        do {
            return try JSONBody.decode(type, from: response.bytes)
        } catch {
            throw .malformedResponse("\(call): \(error.isNotJSON ? error.summary : mismatch ?? error.summary)")
        }
    }

    /// Sends `request`; an accepted answer is returned, a refusal thrown as classified.
    private func exchange(
        _ request: HTTPRequest, context: Classifier.Context, accepting accepted: Set<Int>?
    ) async throws(RemoteAuthError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            let failure: RemoteAuthError =
                if case .responseTooLarge(let limit) = error {
                    .malformedResponse("\(request.name): response body larger than \(limit) bytes")
                } else {
                    .transport(error.description)
                }
            logger.debug(
                "\(Classifier.backend) call failed",
                metadata: [
                    "\(Classifier.backend).call": "\(request.name)", "\(Classifier.backend).failure": "\(failure)",
                ]
            )
            throw failure
        }
        guard accepted.map({ $0.contains(response.status) }) ?? response.isSuccess else {
            let failure = failure(response, call: request.name)
            log(
                "refused", request, response,
                ["\(Classifier.backend).error_code": "\(loggableErrorCode(Classifier.code(of: failure)))"])
            throw Classifier.classify(failure, context: context)
        }
        return response
    }

    private func failure(_ response: HTTPResponse, call: String) -> HTTPFailure<Classifier.ErrorBody> {
        HTTPFailure(
            call: call, status: response.status, headers: response.headers,
            body: try? JSONBody.decode(Classifier.ErrorBody.self, from: response.bytes),
            retryAfterMs: RetryAfter.milliseconds(response.headers.first(name: "Retry-After"), now: now())
        )
    }

    private func log(
        _ outcome: String, _ request: HTTPRequest, _ response: HTTPResponse, _ extra: Logger.Metadata = [:]
    ) {
        var metadata: Logger.Metadata = [
            "\(Classifier.backend).call": "\(request.name)", "http.status": "\(response.status)",
        ]
        metadata.merge(extra) { $1 }
        logger.debug("\(Classifier.backend) call \(outcome)", metadata: metadata)
    }
}

extension UInt8 {
    /// Space, tab, line feed or carriage return: what may surround or make up an empty body.
    fileprivate var isJSONWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

/// A backend's error code as the log may show it: a word in one case with `_` or `-`
/// (`EMAIL_EXISTS`, `otp_expired`) or a status number (`422`); anything else a backend answered
/// there (a message, an address, a mixed-case value that could be a token) is logged as `?`.
func loggableErrorCode(_ code: String?) -> String {
    guard let code else { return "-" }
    let scalars = code.unicodeScalars
    let separator: (Unicode.Scalar) -> Bool = { $0 == "_" || $0 == "-" }
    let upper = scalars.allSatisfy { ("A"..."Z").contains($0) || separator($0) }
    let lower = scalars.allSatisfy { ("a"..."z").contains($0) || separator($0) }
    let status = scalars.count <= 3 && scalars.allSatisfy { ("0"..."9").contains($0) }
    return !code.isEmpty && code.utf8.count <= 64 && (upper || lower || status) ? code : "?"
}
