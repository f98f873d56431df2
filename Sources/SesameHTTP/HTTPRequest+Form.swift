import NIOCore
import NIOHTTP1
import SesameCore

extension HTTPRequest {
    /// A request with `fields` as an `application/x-www-form-urlencoded` body.
    public static func form(
        name: String, method: HTTPMethod, url: String, headers: HTTPHeaders = [:], fields: [(String, String)]
    ) -> HTTPRequest {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded")
        return HTTPRequest(
            name: name, method: method, url: url, headers: headers,
            body: ByteBuffer(string: PercentEncoding.form(fields)))
    }
}
