import Foundation
import NIOHTTP1
import SesameHTTP
import SesameTesting

/// A person's browser, as far as a browser sign-in needs one: it keeps the cookies that hosts
/// set (by host, as browsers do: not by port), follows redirects itself, and answers the
/// emulator's consent page as a person would.
final class TestBrowser: @unchecked Sendable {
    private let transport = AsyncHTTPClientTransport(
        connectTimeout: LoopbackTimeouts.connect, requestTimeout: .seconds(20))
    /// host → cookie name → value.
    private var cookies: [String: [String: String]] = [:]

    func shutdown() async { await transport.shutdown() }

    /// One request (no redirect followed): the cookies of its host go with it, the ones it sets
    /// are kept.
    func send(_ url: String, method: HTTPMethod = .GET, form: [(String, String)]? = nil) async throws -> HTTPResponse {
        let host = URLComponents(string: url)?.host ?? ""
        var request =
            form.map { HTTPRequest.form(name: "browser", method: method, url: url, fields: $0) }
            ?? HTTPRequest(name: "browser", method: method, url: url)
        if let jar = cookies[host], !jar.isEmpty {
            request.headers.add(name: "Cookie", value: jar.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        let response = try await transport.send(request)
        for setCookie in response.headers["Set-Cookie"] {
            let pair = setCookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            if pair.count == 2 { cookies[host, default: [:]][String(pair[0])] = String(pair[1]) }
        }
        return response
    }

    /// Opens `url` and goes where it leads: follows redirects, consents on the emulator's fake
    /// provider page as `email`, until a redirect leaves for `stopAt`; returns that URL, not
    /// opened (the test decides who opens it). The provider URLs passed on the way, first one
    /// first, are in `visited`.
    func follow(
        _ url: String, consentingAs email: String, until stopAt: String, visited: inout [String]
    ) async throws -> String {
        var next = url
        for _ in 0..<8 {
            if next.hasPrefix(stopAt) { return next }
            visited.append(next)
            let response: HTTPResponse
            if next.contains("/emulator/v1/idp/") && next.contains("/authorize") {
                let query = URLComponents(string: next)?.queryItems ?? []
                let fields = query.map { ($0.name, $0.value ?? "") } + [("email", email), ("action", "approve")]
                response = try await send(
                    String(next.split(separator: "?")[0]), method: .POST, form: fields)
            } else {
                response = try await send(next)
            }
            guard (300..<400).contains(response.status), let location = response.headers.first(name: "Location")
            else { throw HarnessError("\(next.prefix(60))… answered \(response.status) without a redirect") }
            next = location.hasPrefix("/") ? Self.origin(of: next) + location : location
        }
        throw HarnessError("too many redirects from \(url.prefix(60))…")
    }

    /// `scheme://host:port` of `url`.
    static func origin(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        return String(url[..<(rest.firstIndex(of: "/") ?? url.endIndex)])
    }

    /// The body of a response as text.
    static func text(_ response: HTTPResponse) -> String { String(decoding: response.bytes, as: UTF8.self) }
}
