import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// Runs in front of every route of a port: answers CORS preflights, applies the fault extension,
/// enforces the 1 MiB body cap (reading the body once, for the route), turns "no route" into
/// the port's own 404/405 answer, and adds the CORS headers.
///
/// Never lets an error escape for a bad request: every failure becomes an error reply in the
/// port's envelope, so one client's bad input cannot affect another.
struct EmulatorMiddleware<Endpoints: EmulatorEndpoints>: RouterMiddleware {
    typealias Context = EmulatorRequestContext

    let endpoints: Endpoints
    let faults: FaultInjector
    let limits: RateLimiter

    func handle(
        _ request: Request, context: EmulatorRequestContext,
        next: (Request, EmulatorRequestContext) async throws -> Response
    ) async throws -> Response {
        let origin = request.header("origin")
        if request.method == .options {
            return Self.withCORS(
                Response.empty(.noContent), origin: origin,
                requestHeaders: request.header("access-control-request-headers"))
        }
        let path = request.decodedPath
        let own = path.hasPrefix(FaultSettings.endpoint) || path.hasPrefix(RateLimitReport.endpoint)
        let key = own ? nil : endpoints.callKey(for: request, route: context.endpointPath)
        if !path.hasPrefix(FaultSettings.endpoint) {
            let extraKeys = key == nil ? [] : endpoints.extraCallKeys(for: request)
            switch await faults.admit(path: path, key: key, extraKeys: extraKeys) {
            case .drop:
                try? await context.channel.close(mode: .all)
                throw CancellationError()
            case .reset:
                await ConnectionReset.reset(context.channel)
                throw CancellationError()
            case .fail(let delayMs, let status, let message, let retryAfter):
                await Self.pause(milliseconds: delayMs)
                var response = endpoints.errorResponse(status: status, message: message)
                if let retryAfter {
                    response.headers.append(HTTPField(name: .retryAfter, value: retryAfter.headerValue))
                }
                return Self.withCORS(response, origin: origin)
            case .garbage(let delayMs):
                await Self.pause(milliseconds: delayMs)
                return Self.withCORS(Self.garbageResponse, origin: origin)
            case .proceed(let delayMs):
                await Self.pause(milliseconds: delayMs)
            }
        }

        guard let body = try await Self.readBody(request.body) else {
            var response = endpoints.payloadTooLargeResponse()
            response.headers.append(HTTPField(name: .connection, value: "close"))
            return Self.withCORS(response, origin: origin)
        }
        if limits.active, let name = endpoints.rateLimitName(for: request, callKey: key, body: body),
            await !limits.admit(
                name,
                address: endpoints.rateLimitKey(for: request, peer: context.channel.remoteAddress?.ipAddress ?? ""))
        {
            return Self.withCORS(endpoints.rateLimitedResponse(), origin: origin)
        }
        var request = endpoints.gateway(request)
        request.body = RequestBody(buffer: ByteBuffer(bytes: body))
        var context = context
        context.body = body
        let response: Response
        do {
            do {
                response = try await next(request, context)
            } catch let error as HTTPError where error.status == .notFound {
                response = try await endpoints.respondUnrouted(to: request, context: context)
            }
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        if !path.hasPrefix(FaultSettings.endpoint) {
            let hold = await faults.holdAnswer(path: path)
            if hold > 0 {
                await Self.pause(milliseconds: hold)
                await faults.answerReleased()
            }
            if let drip = await faults.drip(path: path) {
                return Self.withCORS(Self.dripping(response, drip), origin: origin)
            }
        }
        return Self.withCORS(response, origin: origin)
    }

    /// `response` with its body sent after `drip.bytes` spaces, one every `drip.intervalMs`
    /// (fault `dripBodyMs`); the head goes out at once, without a content length. A `204`, which
    /// may have no body, becomes a `200` whose body is the spaces alone.
    static func dripping(_ response: Response, _ drip: (intervalMs: Int, bytes: Int)) -> Response {
        var response = response
        if response.status == .noContent { response.status = .ok }
        let original = response.body
        response.headers[.contentLength] = nil
        response.body = ResponseBody { writer in
            for _ in 0..<drip.bytes {
                try await writer.write(ByteBuffer(string: " "))
                await pause(milliseconds: drip.intervalMs)
            }
            try await original.write(writer)
        }
        return response
    }

    /// A `200` whose body is not JSON although it claims to be (fault `garbage`).
    static var garbageResponse: Response {
        Response(
            status: .ok, headers: [.contentType: Response.jsonContentType],
            body: ResponseBody(
                byteBuffer: ByteBuffer(string: "<html><body>sesame-emulator: injected garbage, not JSON</body></html>"))
        )
    }

    /// Waits `milliseconds` (fault `latencyMs`); ends early when the emulator shuts down, so a
    /// long latency never holds up ``SesameEmulator/stop()``.
    static func pause(milliseconds: Int) async {
        guard milliseconds > 0 else { return }
        _ = try? await cancelWhenGracefulShutdown {
            try await Task.sleep(for: .milliseconds(milliseconds))
        }
    }

    /// Reads at most ``EmulatorRequestContext/maximumBodySize`` bytes; `nil` when the body is larger.
    /// An oversized body is still drained (up to 64 MiB) so the client reads the 413 instead of
    /// a reset connection.
    static func readBody(_ body: RequestBody) async throws -> [UInt8]? {
        var bytes: [UInt8] = []
        var total = 0
        for try await chunk in body {
            total += chunk.readableBytes
            if total <= EmulatorRequestContext.maximumBodySize {
                bytes.append(contentsOf: chunk.readableBytesView)
            } else if total > 64 << 20 {
                return nil
            }
        }
        return total <= EmulatorRequestContext.maximumBodySize ? bytes : nil
    }

    static func withCORS(_ response: Response, origin: String?, requestHeaders: String? = nil) -> Response {
        var response = response
        response.headers[.accessControlAllowOrigin] = origin ?? "*"
        if origin != nil { response.headers[.accessControlAllowCredentials] = "true" }
        if let requestHeaders { response.headers[.accessControlAllowHeaders] = requestHeaders }
        response.headers[.accessControlAllowMethods] = "GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS"
        return response
    }
}
