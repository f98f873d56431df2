/// One request of git's credential helper protocol (`git help credential`): `key=value` lines
/// on standard input up to a blank line or the end, of which sesamectl reads `protocol`,
/// `host` (with its `:port` when the URL has one) and `path`.
struct CredentialRequest: Equatable, Sendable {
    var protocolName: String?
    var host: String?
    var path: String?

    /// Parses the helper's input; unknown keys and lines without `=` are ignored, as git does.
    init(parsing text: String) {
        // `\r\n` is one Character in Swift, and a newline like `\n`.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals]
            let value = String(line[line.index(after: equals)...])
            switch key {
            case "protocol": protocolName = value
            case "host": host = value
            case "path": path = value
            default: break
            }
        }
    }

    init(protocolName: String?, host: String?, path: String? = nil) {
        self.protocolName = protocolName
        self.host = host
        self.path = path
    }

    /// Whether the token may be handed to this remote: HTTPS (or plain HTTP to a loopback
    /// address) and a host listed in `allowedHosts`, compared case-insensitively, with the
    /// port when the entry names one. Nothing is allowed when the list is empty.
    func isAllowed(by allowedHosts: [String]) -> Bool { refusal(by: allowedHosts) == nil }

    /// Why the token is not handed to this remote, in words for git's terminal (git shows a
    /// helper's standard error); nil when it is allowed.
    func refusal(by allowedHosts: [String]) -> String? {
        guard let host = host?.lowercased(), !host.isEmpty else {
            return "git named no host: the session's ID token is not handed out"
        }
        let scheme = protocolName?.lowercased() ?? ""
        switch scheme {
        case "https": break
        case "http" where Self.isLoopback(host): break
        default:
            return "the session's ID token is not handed to \(scheme)://\(host): only HTTPS, or plain HTTP"
                + " to a loopback address"
        }
        // `host` carries git's `:port` when the URL has one, so an entry matches only the port it names.
        guard allowedHosts.contains(where: { $0.lowercased() == host }) else {
            return "the session's ID token is not handed to \(host): it is not listed in [credential] hosts"
                + " (~/.config/sesame/sesamectl.toml or /etc/sesame/sesamectl.toml)"
        }
        return nil
    }

    /// The answer to `get`: the ID token as the password.
    static func answer(token: String) -> String {
        "username=\(username)\npassword=\(token)\n"
    }

    /// The user name sesamectl answers with; servers that take the ID token read the password.
    static let username = "sesame-id-token"

    static func isLoopback(_ host: String) -> Bool {
        let name = withoutPort(host)
        // 127.0.0.0/8 as an address, never a name that merely starts with "127.".
        let isIPv4Loopback = name.hasPrefix("127.") && name.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
        return name == "localhost" || name == "[::1]" || isIPv4Loopback
    }

    static func withoutPort(_ host: String) -> String {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return host }
            return String(host[...close])
        }
        guard let colon = host.lastIndex(of: ":") else { return host }
        return String(host[..<colon])
    }
}
