import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// The Realtime Database REST subset (reference §9): `GET`, `PUT`, `PATCH`, `POST`, `DELETE` on
/// `/<path>.json`, namespaces by `?ns=`, ETags and `if-match`, `print=silent`, `shallow=true`,
/// queries (``DatabaseQuery``).
/// Uploaded security rules are enforced (``SecurityRules``) for the identity the request
/// names (``DatabaseIdentity``); without uploaded rules every request is allowed.
struct DatabaseEndpoints: EmulatorEndpoints {
    let state: DatabaseState
    let defaultNamespace: String
    /// The port's clock skew (fault `clockSkewSeconds`), read by ``state``'s clock.
    let clockSkew: ClockSkew
    /// How often a streaming `GET` sends `keep-alive`.
    var keepAliveInterval: Duration = .seconds(30)

    func callKey(for request: EmulatorRequest, route: String?) -> String? {
        route == nil ? nil : Self.effectiveMethod(request)
    }

    func errorReply(status: Int, message: String) -> EmulatorReply {
        .json(["error": .string(message)], status: status)
    }

    func payloadTooLargeReply() -> EmulatorReply {
        DatabaseError.payloadTooLarge.reply
    }

    func unroutedReply(for request: EmulatorRequest) -> EmulatorReply {
        .json(["error": "Method not allowed"], status: 405)
    }

    func faultSettingsChanged(_ settings: FaultSettings) async {
        clockSkew.set(seconds: settings.clockSkewSeconds)
    }

    // Routes: every path (the handler reads it itself); a `GET` asking for
    // `text/event-stream` streams (DatabaseEndpoints+Streaming.swift).

    /// The namespace a request names with `?ns=`, else the project's default database.
    func namespace(of request: EmulatorRequest) -> String {
        request.query["ns"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultNamespace
    }

    /// Who the request speaks for (``DatabaseIdentity/of(_:now:)``), by the port's clock.
    func identity(of request: EmulatorRequest) -> DatabaseIdentity {
        DatabaseIdentity.of(request, now: state.clock.milliseconds() / 1000)
    }

    static func effectiveMethod(_ request: EmulatorRequest) -> String {
        if request.method == "POST", let override = request.header("x-http-method-override") {
            return override.uppercased()
        }
        return request.method
    }

    func respond(to request: EmulatorRequest) async throws(DatabaseError) -> EmulatorReply {
        let namespace = namespace(of: request)
        let method = Self.effectiveMethod(request)
        if request.path == "/" && method == "GET" && request.query.isEmpty {
            return .json(["databaseEmulator": ["ready": true]])
        }
        if request.path.hasPrefix("/.settings/rules") {
            switch method {
            case "GET": return .json(await state.rules(namespace: namespace))
            case "PUT":
                let value = try Self.parseBody(request.body, allowLenient: true)
                do throws(SecurityRulesError) {
                    try await state.setRules(namespace: namespace, rules: value)
                } catch {
                    throw DatabaseError(httpStatus: 400, message: "\nError saving rules - \(error.message)\n")
                }
                return .json(["status": "ok"])
            default: throw DatabaseError(httpStatus: 405, message: "Method not allowed")
            }
        }
        let path = try DatabasePath(urlPath: request.path)
        let silent = request.query["print"] == "silent"
        let wantsETag = request.header("x-firebase-etag")?.lowercased() == "true"
        let ifMatch = request.header("if-match")
        let identity = identity(of: request)

        func answer(_ value: JSONValue, etag: String, includeETag: Bool) -> EmulatorReply {
            let headers = includeETag ? [("ETag", etag)] : []
            if silent { return EmulatorReply(status: 204, headers: headers, body: nil) }
            return .json(DatabaseValue.presentation(value), headers: headers)
        }

        switch method {
        case "GET":
            let (value, etag) = try await state.read(namespace: namespace, path: path, as: identity)
            let ifNoneMatch = request.header("if-none-match")
            if ifNoneMatch == etag { return EmulatorReply(status: 304, headers: [("ETag", etag)], body: nil) }
            let shown =
                if let query = try DatabaseQuery(parameters: request.query) {
                    query.apply(to: value)
                } else if request.query["shallow"] == "true" {
                    DatabaseValue.shallow(value)
                } else {
                    value
                }
            return answer(shown, etag: etag, includeETag: wantsETag || ifNoneMatch != nil)
        case "PUT", "DELETE":
            let value = method == "PUT" ? try Self.parseBody(request.body, allowLenient: false) : .null
            switch try await state.write(
                namespace: namespace, path: path, value: value, ifMatch: ifMatch, as: identity)
            {
            case .done(let stored, let etag):
                return answer(stored, etag: etag, includeETag: wantsETag || ifMatch != nil)
            case .preconditionFailed(let current, let etag):
                return .json(DatabaseValue.presentation(current), status: 412, headers: [("ETag", etag)])
            }
        case "PATCH" where ifMatch != nil, "POST" where ifMatch != nil:
            throw DatabaseError(httpStatus: 400, message: "if-match is supported only on PUT and DELETE requests.")
        case "PATCH":
            let value = try Self.parseBody(request.body, allowLenient: false)
            guard case .object(let children) = value else {
                throw DatabaseError(
                    httpStatus: 400, message: "Invalid data; couldn't parse JSON object. PATCH requires an object.")
            }
            let etag = try await state.update(namespace: namespace, path: path, children: children, as: identity)
            let headers = wantsETag ? [("ETag", etag)] : []
            if silent { return EmulatorReply(status: 204, headers: headers, body: nil) }
            return .json(value, headers: headers)
        case "POST":
            let value = try Self.parseBody(request.body, allowLenient: false)
            let key = PushIdentifier.make(milliseconds: state.clock.milliseconds())
            let child = path.appending(DatabasePath(keys: [key]))
            let written = try await state.write(
                namespace: namespace, path: child, value: value, ifMatch: nil, as: identity)
            var headers: [(String, String)] = []
            if wantsETag, case .done(_, let etag) = written { headers = [("ETag", etag)] }
            if silent { return EmulatorReply(status: 204, headers: headers, body: nil) }
            return .json(["name": .string(key)], headers: headers)
        default:
            throw DatabaseError(httpStatus: 405, message: "Method not allowed")
        }
    }

    static func parseBody(_ bytes: [UInt8], allowLenient: Bool) throws(DatabaseError) -> JSONValue {
        do {
            return try JSONCoding.parse(bytes)
        } catch {
            if allowLenient { return .string(String(decoding: bytes, as: UTF8.self)) }
            throw DatabaseError.invalidJSON
        }
    }
}
