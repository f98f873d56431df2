import HTTPTypes
import Hummingbird
import NIOCore

/// Turns Hummingbird requests into ``EmulatorRequest``s: applies CORS, the fault extension and
/// the 1 MiB body cap, then hands the request to the port's ``EmulatorEndpoints``.
///
/// Never lets an error escape for a bad request: every failure becomes an error reply in the
/// port's envelope, so one client's bad input cannot affect another.
struct EmulatorResponder<Endpoints: EmulatorEndpoints>: HTTPResponder {
    typealias Context = EmulatorRequestContext

    static var maximumBodySize: Int { 1 << 20 }

    let endpoints: Endpoints
    let faults: FaultInjector

    func respond(to request: Request, context: EmulatorRequestContext) async throws -> Response {
        let path = FormURLEncoding.decodePath(request.uri.path)
        let query = FormURLEncoding.parseDictionary(request.uri.query ?? "")
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            if let existing = headers[name] {
                headers[name] = existing + ", " + field.value
            } else {
                headers[name] = field.value
            }
        }
        if headers["host"] == nil, let authority = request.head.authority { headers["host"] = authority }
        let method = request.method.rawValue
        let origin = headers["origin"]

        if method == "OPTIONS" {
            return Self.response(EmulatorReply(status: 204), origin: origin, requestHeaders: headers["access-control-request-headers"])
        }

        if path.hasPrefix("/sesame/v1/faults") {
            let body = try await Self.readBody(request.body) ?? []
            let reply = await faultEndpoint(method: method, body: body)
            return Self.response(reply, origin: origin, requestHeaders: nil)
        }

        let probe = EmulatorRequest(method: method, path: path, query: query, headers: headers, body: [])
        switch await faults.admit(path: path, key: endpoints.callKey(for: probe)) {
        case .drop:
            try? await context.channel.close(mode: .all)
            throw CancellationError()
        case .fail(let delayMs, let status, let message):
            if delayMs > 0 { try? await Task.sleep(for: .milliseconds(delayMs)) }
            return Self.response(endpoints.errorReply(status: status, message: message), origin: origin, requestHeaders: nil)
        case .proceed(let delayMs):
            if delayMs > 0 { try? await Task.sleep(for: .milliseconds(delayMs)) }
        }

        guard let body = try await Self.readBody(request.body) else {
            return Self.response(endpoints.payloadTooLargeReply(), origin: origin, requestHeaders: nil, close: true)
        }
        var full = probe
        full.body = body
        let reply = await endpoints.respond(to: full)
        return Self.response(reply, origin: origin, requestHeaders: nil)
    }

    /// Reads at most ``maximumBodySize`` bytes; `nil` when the body is larger. An oversized body
    /// is still drained (up to 64 MiB) so the client reads the 413 instead of a reset connection.
    static func readBody(_ body: RequestBody) async throws -> [UInt8]? {
        var bytes: [UInt8] = []
        var total = 0
        for try await chunk in body {
            total += chunk.readableBytes
            if total <= maximumBodySize {
                bytes.append(contentsOf: chunk.readableBytesView)
            } else if total > 64 << 20 {
                return nil
            }
        }
        return total <= maximumBodySize ? bytes : nil
    }

    private func faultEndpoint(method: String, body: [UInt8]) async -> EmulatorReply {
        switch method {
        case "GET":
            return .json(await faults.report())
        case "DELETE":
            await faults.reset()
            await endpoints.faultSettingsChanged(await faults.settings)
            return .json(await faults.report())
        case "POST", "PATCH", "PUT":
            let parsed: JSON
            do {
                parsed = body.isEmpty ? .object([:]) : try JSONParser.parse(body)
            } catch {
                return .json(["error": .string("Invalid JSON: \(error.message)")], status: 400)
            }
            guard case .object(let fields) = parsed else {
                return .json(["error": "Expected a JSON object"], status: 400)
            }
            do {
                let settings = try await faults.apply(fields)
                await endpoints.faultSettingsChanged(settings)
                return .json(await faults.report())
            } catch {
                return .json(["error": .string(error.message)], status: 400)
            }
        default:
            return .json(["error": "Method not allowed"], status: 405)
        }
    }

    static func response(_ reply: EmulatorReply, origin: String?, requestHeaders: String?, close: Bool = false) -> Response {
        var fields = HTTPFields()
        for (name, value) in reply.headers {
            if let n = HTTPField.Name(name) { fields.append(HTTPField(name: n, value: value)) }
        }
        fields[.accessControlAllowOrigin] = origin ?? "*"
        if origin != nil { fields[.accessControlAllowCredentials] = "true" }
        if let requestHeaders { fields[.accessControlAllowHeaders] = requestHeaders }
        fields[.accessControlAllowMethods] = "GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS"
        if close { fields[.connection] = "close" }
        let status = HTTPResponse.Status(code: reply.status)
        guard let bytes = reply.body else {
            return Response(status: status, headers: fields)
        }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
