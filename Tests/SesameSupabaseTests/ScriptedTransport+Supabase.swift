import NIOHTTP1
import SesameHTTP
import SesameTesting

extension ScriptedTransport.Reply {
    /// A GoTrue error in the 2024-01-01 shape.
    static func error(_ status: Int, _ code: String) -> Self {
        .json(status, #"{"code":"\#(code)","message":"Something about \#(code)"}"#)
    }

    /// A GoTrue error in the legacy shape.
    static func legacy(_ status: Int, _ code: String) -> Self {
        .json(status, #"{"code":\#(status),"error_code":"\#(code)","msg":"Something"}"#)
    }

    /// A PostgREST error.
    static func postgrest(_ status: Int, _ code: String) -> Self {
        .json(status, #"{"code":"\#(code)","details":null,"hint":null,"message":"Something"}"#)
    }

    static let noContent = Self.response(HTTPResponse(status: 204))
}

extension ScriptedTransport {
    /// `METHOD URL`, the headers (lower-cased names, sorted), the body.
    var snapshots: [String] {
        requests.map { request in
            var lines = ["\(request.method.rawValue) \(request.url)"]
            lines += request.headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
            if let body = request.bodyText { lines.append(body) }
            return lines.joined(separator: "\n")
        }
    }
}
