import Foundation
import Hummingbird
import SesameLocalAPI

/// What a PostgREST operation gets: the request (after the gateway), its body, and the role it
/// runs as; and how PostgREST's query filters, `Prefer` header and bodies are read.
struct PostgRESTCall: Sendable {
    let request: Request
    let context: EmulatorRequestContext
    let role: PostgRESTRole

    var query: [String: String] { request.queryFields }
    var table: String { context.parameter("table") }

    /// `col=eq.value` pairs; any other operator is refused.
    func filters() throws(PostgRESTError) -> [(String, String)] {
        var out: [(String, String)] = []
        for (name, value) in query.sorted(by: { $0.key < $1.key })
        where !PostgRESTOperation.reservedParameters.contains(name) {
            guard value.hasPrefix("eq.") else { throw .badFilter(value) }
            out.append((name, String(value.dropFirst(3))))
        }
        return out
    }

    /// `Prefer: return=minimal, resolution=merge-duplicates` as a dictionary.
    var preferences: [String: String] {
        var out: [String: String] = [:]
        for item in (request.header("prefer") ?? "").split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 { out[pair[0]] = pair[1] }
        }
        return out
    }

    /// A function's named arguments: the JSON object of a `POST` (a blank body is none), or
    /// the query of a `GET`.
    func arguments() throws(PostgRESTError) -> [String: JSONValue] {
        guard request.method == .post else {
            return query.filter { !PostgRESTOperation.reservedParameters.contains($0.key) }.mapValues(JSONValue.string)
        }
        let body = JSONCoding.objectIfBlank(context.body)
        guard let arguments = try? JSONCoding.decode([String: JSONValue].self, from: body) else { throw .invalidJSON }
        return arguments
    }

    /// The insert body: one row object or an array of them. The columns are the table's, so a row
    /// stays a dictionary; ``PostgRESTTables/insert(_:rows:as:upsert:userExists:)`` checks them.
    func rows() throws(PostgRESTError) -> [[String: JSONValue]] {
        if let row = try? JSONCoding.decode([String: JSONValue].self, from: context.body) { return [row] }
        guard let rows = try? JSONCoding.decode([[String: JSONValue]].self, from: context.body) else {
            throw .invalidJSON
        }
        return rows
    }
}
