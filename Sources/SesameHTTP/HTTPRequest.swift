import NIOCore
import NIOHTTP1

/// One HTTP request, as an adapter builds it.
///
/// A value, so tests can record and compare request shapes. The URL may carry secrets (an API
/// key, an `auth=` token), and the headers and body may carry bearer tokens, passwords and
/// codes: never log them. `name` is what logs show.
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible {
    /// A short, secret-free name of the call, e.g. `accounts:signUp` or `auth.token`.
    public var name: String
    public var method: HTTPMethod
    /// The absolute URL including the query.
    public var url: String
    public var headers: HTTPHeaders
    public var body: ByteBuffer?

    public init(name: String, method: HTTPMethod, url: String, headers: HTTPHeaders = [:], body: ByteBuffer? = nil) {
        self.name = name
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// Method and name only: the URL, headers and body may hold secrets.
    public var description: String { "\(method.rawValue) \(name) (redacted)" }

    /// The body as UTF-8 text (tests and snapshots).
    public var bodyText: String? {
        body.map { String(buffer: $0) }
    }
}
