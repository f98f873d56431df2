import Hummingbird
import SesameCore
import SesameLocalAPI

/// One HTTP request as the emulator's endpoints see it: path decoded, headers folded, body read
/// (the middleware has already capped it).
struct EmulatorRequest: Sendable {
    var method: String
    /// The percent-decoded path, e.g. `/identitytoolkit.googleapis.com/v1/accounts:signUp`.
    var path: String
    /// Query parameters, decoded; a repeated name keeps the first value.
    var query: [String: String]
    /// Header fields with lower-cased names; repeated fields joined with `, `.
    var headers: [String: String]
    var body: [UInt8]
    /// Path parameters of the matched route (`operation`, `project`…), percent-decoded.
    var parameters: [String: String] = [:]

    init(method: String, path: String, query: [String: String], headers: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The request's head, without its body.
    init(head request: Request) {
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
        self.init(
            method: request.method.rawValue, path: PercentEncoding.path(request.uri.path),
            query: PercentEncoding.formDictionary(request.uri.query ?? ""), headers: headers, body: [])
    }

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}
