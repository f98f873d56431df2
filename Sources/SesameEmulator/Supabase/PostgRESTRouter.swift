import Foundation

/// Routes `/rest/v1/*`: verifies the bearer JWT, parses PostgREST's query syntax (`col=eq.v`,
/// `select=`) and `Prefer`, and calls the ``GoTrueStore`` table operations.
struct PostgRESTRouter: Sendable {
    static let prefix = "/rest/v1"
    static let reservedParameters: Set<String> = ["select", "order", "limit", "offset", "on_conflict", "columns", "apikey"]

    let store: GoTrueStore

    /// The fault extension's counter name: `rest:<table>` or `rest:rpc/<name>`.
    static func callKey(_ subpath: String) -> String { "rest:" + subpath }

    /// Answers `request`, whose path is `/rest/v1/<subpath>`.
    func respond(_ request: EmulatorRequest, subpath: String) async -> EmulatorReply {
        do {
            return try await dispatch(request, subpath: subpath)
        } catch {
            return error.reply
        }
    }

    /// The role and `auth.uid()` of the request's bearer JWT; no bearer is `anon`.
    func role(_ request: EmulatorRequest) throws(PostgRESTError) -> PostgRESTRole {
        guard let bearer = GoTrueRouter.bearer(request) else { return PostgRESTRole(role: "anon", uid: nil) }
        let claims: [String: JSON]
        do {
            claims = try store.jwt.verify(bearer, now: store.clock.milliseconds() / 1000)
        } catch {
            throw .jwt(error)
        }
        let role = claims["role"]?.stringValue ?? "anon"
        guard ["anon", "authenticated", "service_role"].contains(role) else {
            throw PostgRESTError(status: 401, code: "22023", message: "role \"\(role)\" does not exist")
        }
        return PostgRESTRole(role: role, uid: claims["sub"]?.stringValue.flatMap { $0.isEmpty ? nil : $0.lowercased() })
    }

    private func dispatch(_ request: EmulatorRequest, subpath: String) async throws(PostgRESTError) -> EmulatorReply {
        let role = try role(request)
        let prefer = Self.preferences(request.header("prefer"))
        if subpath.hasPrefix("rpc/") {
            guard request.method == "POST" || request.method == "GET" else { throw Self.unsupported(request.method) }
            try await store.restCall(String(subpath.dropFirst(4)), as: role)
            return EmulatorReply(status: 204)
        }
        let table = subpath
        let filters = try Self.filters(request.query)
        switch request.method {
        case "GET", "HEAD":
            let columns = request.query["select"].flatMap { $0 == "*" ? nil : $0.split(separator: ",").map(String.init) }
            let rows = try await store.restSelect(table, filters: filters, columns: columns)
            let count = rows.arrayValue?.count ?? 0
            let range = count == 0 ? "*/*" : "0-\(count - 1)/*"
            var reply = EmulatorReply.json(rows, headers: [("Content-Range", range)])
            if request.method == "HEAD" { reply.body = nil }
            return reply
        case "POST":
            let rows = try Self.rows(request.body)
            let written = try await store.restInsert(
                table, rows: rows, as: role, upsert: prefer["resolution"] == "merge-duplicates")
            if prefer["return"] == "representation" {
                return .json(.array(written.map(JSON.object)), status: 201)
            }
            return EmulatorReply(status: 201)
        case "DELETE":
            _ = try await store.restDelete(table, filters: filters, as: role)
            return EmulatorReply(status: 204)
        default:
            throw Self.unsupported(request.method)
        }
    }

    static func unsupported(_ method: String) -> PostgRESTError {
        PostgRESTError(
            status: 405, code: "PGRST117", message: "Unsupported HTTP method: \(method)",
            hint: "This emulator serves GET, POST and DELETE on tables and POST on rpc/")
    }

    /// `col=eq.value` pairs; any other operator is refused.
    static func filters(_ query: [String: String]) throws(PostgRESTError) -> [(String, String)] {
        var out: [(String, String)] = []
        for (name, value) in query.sorted(by: { $0.key < $1.key }) where !reservedParameters.contains(name) {
            guard value.hasPrefix("eq.") else { throw .badFilter(value) }
            out.append((name, String(value.dropFirst(3))))
        }
        return out
    }

    /// `Prefer: return=minimal, resolution=merge-duplicates` as a dictionary.
    static func preferences(_ header: String?) -> [String: String] {
        var out: [String: String] = [:]
        for item in (header ?? "").split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 { out[pair[0]] = pair[1] }
        }
        return out
    }

    /// A JSON object or array of objects.
    static func rows(_ body: [UInt8]) throws(PostgRESTError) -> [[String: JSON]] {
        let invalid = PostgRESTError(status: 400, code: "PGRST102", message: "Empty or invalid json")
        guard let parsed = try? JSON.parse(body) else { throw invalid }
        switch parsed {
        case .object(let o): return [o]
        case .array(let items):
            var rows: [[String: JSON]] = []
            for item in items {
                guard case .object(let o) = item else { throw invalid }
                rows.append(o)
            }
            return rows
        default: throw invalid
        }
    }
}
