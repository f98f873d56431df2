import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// The Realtime Database REST subset (reference §9): `GET`, `PUT`, `PATCH`, `POST`, `DELETE` on
/// `/<path>.json`, namespaces by `?ns=`, ETags and `if-match`, `print=silent`, `shallow=true`.
/// Every request is allowed (no rules); `auth=` and `Authorization` are accepted and ignored.
struct DatabaseEndpoints: EmulatorEndpoints {
    let state: DatabaseState
    let defaultNamespace: String
    /// The port's clock skew (fault `clockSkewSeconds`), read by ``state``'s clock.
    let clockSkew: ClockSkew

    static let unsupportedQueries = [
        "orderBy", "equalTo", "startAt", "endAt", "limitToFirst", "limitToLast", "startAfter", "endBefore",
    ]

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

    // Routes: the default catch-all (every path, the handler reads it itself), see
    // ``EmulatorEndpoints/addRoutes(to:)``.

    static func effectiveMethod(_ request: EmulatorRequest) -> String {
        if request.method == "POST", let override = request.header("x-http-method-override") {
            return override.uppercased()
        }
        return request.method
    }

    func respond(to request: EmulatorRequest) async throws(DatabaseError) -> EmulatorReply {
        let namespace = request.query["ns"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultNamespace
        let method = Self.effectiveMethod(request)
        if request.path == "/" && method == "GET" && request.query.isEmpty {
            return .json(["databaseEmulator": ["ready": true]])
        }
        if request.path.hasPrefix("/.settings/rules") {
            switch method {
            case "GET": return .json(await state.rules(namespace: namespace))
            case "PUT":
                let value = try Self.parseBody(request.body, allowLenient: true)
                await state.setRules(namespace: namespace, rules: value)
                return .json(["status": "ok"])
            default: throw DatabaseError(httpStatus: 405, message: "Method not allowed")
            }
        }
        for name in Self.unsupportedQueries where request.query[name] != nil {
            throw DatabaseError(httpStatus: 400, message: "\(name) queries are not supported by sesame-emulator")
        }
        let path = try DatabasePath(urlPath: request.path)
        let silent = request.query["print"] == "silent"
        let wantsETag = request.header("x-firebase-etag")?.lowercased() == "true"
        let ifMatch = request.header("if-match")

        func answer(_ value: JSONValue, etag: String, includeETag: Bool) -> EmulatorReply {
            let headers = includeETag ? [("ETag", etag)] : []
            if silent { return EmulatorReply(status: 204, headers: headers, body: nil) }
            return .json(DatabaseValue.presentation(value), headers: headers)
        }

        switch method {
        case "GET":
            let (value, etag) = await state.read(namespace: namespace, path: path)
            if let ifNoneMatch = request.header("if-none-match"), ifNoneMatch == etag {
                return EmulatorReply(status: 304, headers: [("ETag", etag)], body: nil)
            }
            let shown = request.query["shallow"] == "true" ? DatabaseValue.shallow(value) : value
            return answer(shown, etag: etag, includeETag: wantsETag)
        case "PUT", "DELETE":
            let value = method == "PUT" ? try Self.parseBody(request.body, allowLenient: false) : .null
            switch try await state.write(namespace: namespace, path: path, value: value, ifMatch: ifMatch) {
            case .done(let stored, let etag):
                return answer(stored, etag: etag, includeETag: wantsETag || ifMatch != nil)
            case .preconditionFailed(let current, let etag):
                return .json(DatabaseValue.presentation(current), status: 412, headers: [("ETag", etag)])
            }
        case "PATCH":
            let value = try Self.parseBody(request.body, allowLenient: false)
            guard case .object(let children) = value else {
                throw DatabaseError(
                    httpStatus: 400, message: "Invalid data; couldn't parse JSON object. PATCH requires an object.")
            }
            try await state.update(namespace: namespace, path: path, children: children)
            if silent { return EmulatorReply(status: 204, body: nil) }
            return .json(value)
        case "POST":
            let value = try Self.parseBody(request.body, allowLenient: false)
            let key = PushIdentifier.make(milliseconds: state.clock.milliseconds())
            let child = path.appending(DatabasePath(keys: [key]))
            _ = try await state.write(namespace: namespace, path: child, value: value, ifMatch: nil)
            if silent { return EmulatorReply(status: 204, body: nil) }
            return .json(["name": .string(key)])
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
