import Foundation
import Logging
import NIOHTTP1
import SesameCore
import SesameHTTP
import SesameTesting
import Synchronization
import Testing

/// The shared pipeline on its own: a scripted transport and a classifier that reports what it
/// was handed, so each test sees exactly what the pipeline decoded and measured.
@Suite("JSON endpoint pipeline")
struct JSONEndpointClientTests {
    typealias Reply = ScriptedTransport.Reply

    /// 2027-01-15 08:00:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Classifies a refusal as `unsupported("<context> <status> <code> <retry>")`.
    enum Reporter: BackendErrorClassifier {
        struct ErrorBody: Decodable, Sendable { var code: String }

        static let backend = "test"

        static func code(of failure: HTTPFailure<ErrorBody>) -> String? { failure.body?.code }

        static func classify(_ failure: HTTPFailure<ErrorBody>, context: String) -> RemoteAuthError {
            let retry = failure.retryAfterMs.map(String.init) ?? "-"
            return .unsupported("\(context) \(failure.call) \(failure.status) \(failure.body?.code ?? "-") \(retry)")
        }
    }

    struct Answer: Decodable, Sendable, Equatable { var value: Int }

    static func pipeline(_ transport: ScriptedTransport) -> JSONEndpointClient<Reporter> {
        JSONEndpointClient(transport: transport, logger: Logger(label: "test"), now: { Self.now })
    }

    static let request = HTTPRequest(name: "things.get", method: .GET, url: "http://127.0.0.1:1/things")

    @Test("a 2xx answer is decoded into the endpoint's answer type")
    func decodesAnswer() async throws {
        let transport = ScriptedTransport([.json(201, #"{"value":7}"#)])
        let answer = try await Self.pipeline(transport).answer(Self.request, as: Answer.self, context: "c")
        #expect(answer == Answer(value: 7))
        #expect(await transport.requests == [Self.request])
    }

    @Test("a refusal's error body is decoded and handed to the classifier with its status")
    func classifiesRefusal() async {
        let transport = ScriptedTransport([.json(400, #"{"code":"bad_thing","message":"echoes input"}"#)])
        await #expect(throws: RemoteAuthError.unsupported("ctx things.get 400 bad_thing -")) {
            try await Self.pipeline(transport).answer(Self.request, as: Answer.self, context: "ctx")
        }
    }

    @Test("each body is decoded once: the error body of a refusal, the answer of a success")
    func decodesOnce() async throws {
        let transport = ScriptedTransport([.json(409, #"{"code":"x"}"#), .json(200, #"{"value":1}"#)])
        let pipeline = JSONEndpointClient<CountingClassifier>(
            transport: transport, logger: Logger(label: "test"), now: { Self.now })
        await #expect(throws: RemoteAuthError.self) {
            _ = try await pipeline.answer(Self.request, as: CountedAnswer.self, context: ())
        }
        _ = try await pipeline.answer(Self.request, as: CountedAnswer.self, context: ())
        #expect(CountingClassifier.ErrorBody.decodes.load(ordering: .relaxed) == 1)
        #expect(CountedAnswer.decodes.load(ordering: .relaxed) == 1)
    }

    @Test(
        "Retry-After reaches the classifier in milliseconds, seconds or an HTTP date",
        arguments: [("12", "12000"), ("Fri, 15 Jan 2027 08:00:30 GMT", "30000"), ("soon", "-")])
    func retryAfter(header: String, expected: String) async {
        let transport = ScriptedTransport([.json(429, "{}", headers: ["Retry-After": header])])
        await #expect(throws: RemoteAuthError.unsupported("c things.get 429 - \(expected)")) {
            try await Self.pipeline(transport).answer(Self.request, as: Answer.self, context: "c")
        }
    }

    @Test("a garbage error body reaches the classifier as no body")
    func garbageRefusal() async {
        let transport = ScriptedTransport([.json(502, "<html>bad gateway</html>")])
        await #expect(throws: RemoteAuthError.unsupported("c things.get 502 - -")) {
            try await Self.pipeline(transport).answer(Self.request, as: Answer.self, context: "c")
        }
    }

    @Test(
        "a 2xx answer that does not decode is malformed, naming the field, never a value",
        arguments: [
            ("<html>ok</html>", "things.get: not JSON"),
            ("", "things.get: not JSON"),
            (#"{"value":"SECRET"}"#, "things.get: unexpected type at value"),
            (#"{}"#, "things.get: missing field value"),
        ])
    func garbageAnswer(body: String, expected: String) async {
        let transport = ScriptedTransport([.json(200, body)])
        await #expect(throws: RemoteAuthError.malformedResponse(expected)) {
            try await Self.pipeline(transport).answer(Self.request, as: Answer.self, context: "c")
        }
    }

    @Test("a mismatch is named as the endpoint asks, while a body that is not JSON stays `not JSON`")
    func mismatch() async {
        let transport = ScriptedTransport([.json(200, "[1]"), .json(200, "nope")])
        let pipeline = Self.pipeline(transport)
        await #expect(throws: RemoteAuthError.malformedResponse("things.get: not a thing")) {
            try await pipeline.answer(Self.request, as: Answer.self, context: "c", mismatch: "not a thing")
        }
        await #expect(throws: RemoteAuthError.malformedResponse("things.get: not JSON")) {
            try await pipeline.answer(Self.request, as: Answer.self, context: "c", mismatch: "not a thing")
        }
    }

    @Test("NoContent takes an empty body or any JSON, and refuses a body that is not JSON")
    func noContent() async throws {
        let transport = ScriptedTransport([
            .response(HTTPResponse(status: 204)), .json(200, " \n"), .json(200, "[]"), .json(200, "<html>"),
        ])
        let pipeline = Self.pipeline(transport)
        for _ in 0..<3 {
            #expect(try await pipeline.answer(Self.request, as: NoContent.self, context: "c") == NoContent())
        }
        await #expect(throws: RemoteAuthError.malformedResponse("things.get: not JSON")) {
            try await pipeline.answer(Self.request, as: NoContent.self, context: "c")
        }
    }

    @Test("only the accepted statuses are answers; the caller may still classify one as a refusal")
    func acceptedStatuses() async throws {
        let transport = ScriptedTransport([.json(412, #"{"code":"taken"}"#), .json(204, "")])
        let pipeline = Self.pipeline(transport)
        let conflict = try await pipeline.response(Self.request, context: "c", accepting: [200, 412])
        #expect(conflict.status == 412)
        #expect(
            pipeline.refusal(conflict, call: "things.put", context: "c")
                == .unsupported("c things.put 412 taken -"))
        await #expect(throws: RemoteAuthError.unsupported("c things.get 204 - -")) {
            try await pipeline.response(Self.request, context: "c", accepting: [200])
        }
    }

    @Test(
        "a transport failure is a transient error; an oversized body a malformed one",
        arguments: [
            (HTTPTransportError.connectTimedOut, RemoteAuthError.transport("connect timed out")),
            (.connectFailed(errno: 111), .transport("connection failed (errno 111)")),
            (.requestTimedOut, .transport("request timed out")),
            (.responseTooLarge(limit: 10), .malformedResponse("things.get: response body larger than 10 bytes")),
        ])
    func transportFailure(failure: HTTPTransportError, expected: RemoteAuthError) async {
        let transport = ScriptedTransport([.failure(failure)])
        await #expect(throws: expected) {
            try await Self.pipeline(transport).answer(Self.request, as: Answer.self, context: "c")
        }
    }
}

/// Counts how often the pipeline decodes an error body (used by one test only).
enum CountingClassifier: BackendErrorClassifier {
    struct ErrorBody: Decodable, Sendable {
        static let decodes = Atomic<Int>(0)

        init(from decoder: any Decoder) throws {
            Self.decodes.add(1, ordering: .relaxed)
        }
    }

    static let backend = "counting"

    static func code(of failure: HTTPFailure<ErrorBody>) -> String? { nil }

    static func classify(_ failure: HTTPFailure<ErrorBody>, context: Void) -> RemoteAuthError {
        .unavailable(status: failure.status)
    }
}

/// Counts how often the pipeline decodes an answer (used by one test only).
struct CountedAnswer: Decodable, Sendable {
    static let decodes = Atomic<Int>(0)

    init(from decoder: any Decoder) throws {
        Self.decodes.add(1, ordering: .relaxed)
    }
}
