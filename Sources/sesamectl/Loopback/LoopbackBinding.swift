import Foundation

/// What ties a browser sign-in to the one browser sesamectl opened (docs/threat-model.md, the
/// browser flow's local-attacker rows).
///
/// The browser is not given the provider's URL: that URL holds the flow's `state`, and a command
/// line is readable by every local user (`/proc/PID/cmdline`). It is given a one-time launch
/// address on the loopback listener, `http://127.0.0.1:PORT/launch/TOKEN`, which redirects it to
/// the provider and sets a cookie (`HttpOnly`, `SameSite=Lax`) that the browser sends back with
/// the provider's callback. A callback without that cookie did not come from that browser.
struct LoopbackBinding: Sendable {
    /// The secret part of the launch address.
    let launchToken: String
    /// The cookie's name: one per sign-in, so two at once do not overwrite each other's
    /// (browsers keep cookies per host, not per port).
    let cookieName: String
    let cookieValue: String

    /// How long the browser keeps the cookie: a flow's longest life (PROTOCOL.md: 15 minutes).
    static let cookieLifetime = 15 * 60

    init() {
        launchToken = Self.randomToken()
        cookieName = "sesame_loopback_" + Self.randomToken().prefix(12)
        cookieValue = Self.randomToken()
    }

    /// The launch address's path.
    var launchPath: String { "/launch/" + launchToken }

    /// The `Set-Cookie` value the launch address answers with.
    var setCookie: String {
        "\(cookieName)=\(cookieValue); Path=/; Max-Age=\(Self.cookieLifetime); HttpOnly; SameSite=Lax"
    }

    /// Whether `path` is the launch address's (compared in constant time).
    func isLaunch(_ path: Substring) -> Bool {
        guard path.hasPrefix("/launch/") else { return false }
        return Self.same(path.dropFirst("/launch/".count), launchToken)
    }

    /// Whether `Cookie` header values carry the binding cookie with its value.
    func isBound(cookieHeaders: [String]) -> Bool {
        for header in cookieHeaders {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == cookieName, Self.same(trimmed[trimmed.index(after: equals)...], cookieValue) {
                    return true
                }
            }
        }
        return false
    }

    /// 32 random bytes as lowercase hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// Whether two secrets are equal, in time that does not depend on where they differ.
    static func same(_ given: some StringProtocol, _ expected: String) -> Bool {
        let (a, b) = (Array(given.utf8), Array(expected.utf8))
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
