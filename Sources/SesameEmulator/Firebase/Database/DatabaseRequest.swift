import Hummingbird
import SesameLocalAPI

/// One request to the database port, as its operations read it.
struct DatabaseRequest: Sendable {
    /// The method, after `X-HTTP-Method-Override` on a `POST`.
    var method: String
    /// The percent-decoded path, e.g. `/users/bob.json`.
    var urlPath: String
    /// The namespace named with `?ns=`, else the project's default database.
    var namespace: String
    var query: [String: String]
    var body: [UInt8]
    /// Who the request speaks for (``DatabaseIdentity/of(_:query:now:)``).
    var identity: DatabaseIdentity
    /// `print=silent`: a write answers 204 without a body.
    var silent: Bool
    /// `X-Firebase-ETag: true`.
    var wantsETag: Bool
    var ifMatch: String?
    var ifNoneMatch: String?

    /// - Parameter now: seconds since 1970 by the port's clock, for ID tokens' `exp`.
    init(_ request: Request, body: [UInt8], defaultNamespace: String, now: Int) {
        method = Self.effectiveMethod(request)
        urlPath = request.decodedPath
        query = request.queryFields
        namespace = query["ns"].nonEmpty ?? defaultNamespace
        self.body = body
        identity = DatabaseIdentity.of(request, query: query, now: now)
        silent = query["print"] == "silent"
        wantsETag = request.header("x-firebase-etag")?.lowercased() == "true"
        ifMatch = request.header("if-match")
        ifNoneMatch = request.header("if-none-match")
    }

    static func effectiveMethod(_ request: Request) -> String {
        if request.method == .post, let override = request.header("x-http-method-override") {
            return override.uppercased()
        }
        return request.method.rawValue
    }

    func path() throws(DatabaseError) -> DatabasePath { try DatabasePath(urlPath: urlPath) }

    /// The body as JSON; with `allowLenient` (rules), text that is not JSON is taken as a string.
    func json(allowLenient: Bool = false) throws(DatabaseError) -> JSONValue {
        do {
            return try JSONCoding.parse(body)
        } catch {
            if allowLenient { return .string(String(decoding: body, as: UTF8.self)) }
            throw DatabaseError.invalidJSON
        }
    }
}
