import HTTPTypes
import Hummingbird
import NIOCore
import SesameLocalAPI

/// One HTTP answer from an endpoint. `body == nil` means no body (204, 303…).
struct EmulatorReply: Sendable, ResponseGenerator {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8]?

    static let jsonContentType = ("Content-Type", "application/json; charset=utf-8")

    /// A JSON answer.
    static func json(_ value: JSONValue, status: Int = 200, headers: [(String, String)] = []) -> EmulatorReply {
        EmulatorReply(status: status, headers: [jsonContentType] + headers, body: value.serialized())
    }

    /// A JSON answer from a typed response; `nil` properties are omitted.
    static func encoded(_ value: some Encodable, status: Int = 200) -> EmulatorReply {
        EmulatorReply(status: status, headers: [jsonContentType], body: JSONCoding.encodedBytes(value))
    }

    func response(from request: Request, context: some RequestContext) -> Response { response }

    /// The Hummingbird response.
    var response: Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let n = HTTPField.Name(name) { fields.append(HTTPField(name: n, value: value)) }
        }
        let status = HTTPResponse.Status(code: status)
        guard let body else { return Response(status: status, headers: fields) }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
