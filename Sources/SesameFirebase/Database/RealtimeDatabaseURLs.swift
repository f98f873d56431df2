import Foundation
import SesameCore
import SesameHTTP

/// The REST URLs of one Realtime Database (docs/usernames.md).
///
/// Production: `https://<db>.firebaseio.com/<path>.json`. With an emulator host:
/// `http://HOST:PORT/<path>.json?ns=<namespace>`, where the namespace is the database URL's
/// `ns` query item, else the first label of its host, else `<projectId>-default-rtdb`.
/// `auth=<ID token>` follows on requests that carry one.
struct RealtimeDatabaseURLs: Sendable, Hashable {
    /// `scheme://host[:port]`, no trailing slash.
    let base: String
    /// The `ns` query item, for emulators.
    let namespace: String?

    /// Nil when neither a database URL nor a database emulator host is configured.
    init?(configuration: FirebaseConfiguration) {
        let parsed = configuration.databaseURL.flatMap(Self.parse)
        if let emulator = configuration.databaseEmulatorHost {
            base = "http://\(emulator)"
            namespace =
                parsed?.namespace ?? parsed?.host.split(separator: ".").first.map(String.init)
                ?? "\(configuration.projectId)-default-rtdb"
        } else if let parsed {
            base = parsed.base
            namespace = parsed.namespace
        } else {
            return nil
        }
    }

    /// The URL of the location `segments` (each percent-encoded), with `auth` when given.
    func url(_ segments: [String], auth: String? = nil) -> String {
        let path = segments.map(PercentEncoding.pathSegment).joined(separator: "/")
        var query: [(String, String)] = []
        if let namespace { query.append(("ns", namespace)) }
        if let auth, !auth.isEmpty { query.append(("auth", auth)) }
        return PercentEncoding.url("\(base)/\(path).json", query: query)
    }

    private struct Parsed {
        var base: String
        var host: String
        var namespace: String?
    }

    /// Splits a database URL (`https://db.firebaseio.com/`, `db.firebaseio.com`,
    /// `http://127.0.0.1:9000?ns=db`) into its origin, host and `ns`.
    private static func parse(_ text: String) -> Parsed? {
        let withScheme = text.contains("://") ? text : "https://\(text)"
        guard let components = URLComponents(string: withScheme), let scheme = components.scheme,
            let host = components.host, !host.isEmpty
        else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        let namespace = components.queryItems?.first(where: { $0.name == "ns" })?.value.flatMap {
            $0.isEmpty ? nil : $0
        }
        return Parsed(base: "\(scheme)://\(host)\(port)", host: host, namespace: namespace)
    }
}
