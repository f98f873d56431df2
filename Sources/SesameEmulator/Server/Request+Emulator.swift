import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SesameCore
import SesameLocalAPI

extension Request {
    /// The header field `name` (any case); repeated fields joined with `, `. `Host` falls back
    /// to the request's authority, where HTTP/1 puts it.
    func header(_ name: String) -> String? {
        guard let field = HTTPField.Name(name) else { return nil }
        let values = headers[values: field]
        if values.isEmpty { return field.canonicalName == "host" ? head.authority : nil }
        return values.joined(separator: ", ")
    }

    /// The percent-decoded path, e.g. `/identitytoolkit.googleapis.com/v1/accounts:signUp`.
    var decodedPath: String { PercentEncoding.path(uri.path) }

    /// The query parameters, decoded; a repeated name keeps its first value.
    var queryFields: [String: String] { PercentEncoding.formDictionary(uri.query ?? "") }

    /// `http://host:port` as the client addressed the port (`fallbackHost` without a `Host`).
    func origin(fallbackHost: String) -> String { "http://" + (header("host") ?? fallbackHost) }

    /// `Bearer <token>` of `Authorization`, trimmed, or `nil` for another scheme.
    var bearerToken: String? {
        guard let value = header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}

extension Optional where Wrapped == String {
    /// The string when it is present and non-empty (the emulator's "truthy" test).
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}

extension String {
    /// A URL without its fragment, and the fragment with its `#` (`""` when it has none).
    var splitAtFragment: (base: String, fragment: String) {
        guard let hash = firstIndex(of: "#") else { return (self, "") }
        return (String(self[..<hash]), String(self[hash...]))
    }
}

extension EmulatorRequestContext {
    /// The path parameter `name` of the matched route, percent-decoded; `""` when absent.
    func parameter(_ name: String) -> String { parameters.get(name).map { PercentEncoding.path($0) } ?? "" }

    /// The body's form fields (`application/x-www-form-urlencoded`), with the query's added
    /// where the body has none.
    func form(_ request: Request) -> [String: String] {
        var fields = PercentEncoding.formDictionary(String(decoding: body, as: UTF8.self))
        for (name, value) in request.queryFields where fields[name] == nil { fields[name] = value }
        return fields
    }
}

extension Response {
    static let jsonContentType = "application/json; charset=utf-8"

    /// A JSON answer: a ``JSONValue`` by its own writer, any other `Encodable` by
    /// ``JSONCoding/encodedBytes(_:)`` (keys sorted, `nil` omitted).
    static func json(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        let bytes = (value as? JSONValue)?.serialized() ?? JSONCoding.encodedBytes(value)
        var fields: HTTPFields = [.contentType: jsonContentType]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// An answer without a body (204, 302, 303, 304…).
    static func empty(_ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        Response(status: status, headers: headers)
    }
}

/// Writes the typed answers of the emulator's routes (``Response/json(_:status:headers:)``), so
/// an `Encodable` response type is a Hummingbird `ResponseEncodable`.
struct EmulatorResponseEncoder: ResponseEncoder {
    func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        .json(value)
    }
}

extension JSONValue: ResponseGenerator, ResponseEncodable {}
