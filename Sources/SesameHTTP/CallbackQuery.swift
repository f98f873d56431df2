import SesameCore

/// The parameters of a URL a browser came back to (or of an authorization URL): its query's,
/// then its fragment's (some backends put their errors there). Read with the one form decoder,
/// not Foundation's URL parser, which refuses some URLs browsers send. Values may be secrets
/// (codes, `state`): never log them.
public struct CallbackQuery: Sendable {
    public let fields: [(String, String)]

    public init(_ url: String) {
        var rest = Substring(url)
        var fragment: Substring = ""
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        let query = rest.firstIndex(of: "?").map { rest[rest.index(after: $0)...] } ?? ""
        fields = PercentEncoding.formFields(query) + PercentEncoding.formFields(fragment)
    }

    /// The first non-empty value of `name`.
    public func value(_ name: String) -> String? {
        fields.first { $0.0 == name && !$0.1.isEmpty }?.1
    }
}
