import Foundation
import NIOHTTP1
import SesameFirebase
import SesameHTTP

/// Renders a request as reviewable text: `METHOD URL`, then the headers (lower-cased names,
/// sorted), then the body. A change of request shape shows up as a diff of these strings.
enum RequestSnapshot {
    static func render(_ request: HTTPRequest) -> String {
        var lines = ["\(request.method.rawValue) \(request.url)"]
        let headers = request.headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
        lines.append(contentsOf: headers)
        if let body = request.bodyText {
            lines.append("")
            lines.append(body)
        }
        return lines.joined(separator: "\n")
    }
}
