import HTTPTypes
import Hummingbird
import SesameCore
import SesameLocalAPI

/// `/admin/*` and `/invite`, behind a service_role bearer.
extension GoTrueOperation {
    /// GoTrue's page size when `per_page` is absent (`pagination.go` `defaultPerPage`).
    static let defaultPerPage = 50

    static let admin: [GoTrueOperation] = [
        GoTrueOperation(.get, "admin/users", .admin) { store, call throws(GoTrueError) in
            try await listUsers(store, call)
        },
        GoTrueOperation(.post, "invite", .admin) { store, call throws(GoTrueError) in
            try await store.invite(call.body(), origin: call.origin, redirectTo: call.redirectTo)
        },
        GoTrueOperation(.post, "admin/users", .admin) { store, call throws(GoTrueError) in
            try await store.adminCreateUser(call.body())
        },
        GoTrueOperation(.post, "admin/generate_link", .admin) { store, call throws(GoTrueError) in
            try await store.generateLink(call.body(), origin: call.origin)
        },
        GoTrueOperation(.get, "admin/users/{id}", .admin) { store, call throws(GoTrueError) in
            try await store.adminUser(call.parameter("id")).json
        },
        GoTrueOperation(.put, "admin/users/{id}", .admin) { store, call throws(GoTrueError) in
            try await store.adminUpdateUser(call.parameter("id"), call.body())
        },
        GoTrueOperation(.delete, "admin/users/{id}", .admin) { store, call throws(GoTrueError) in
            try await store.adminDeleteUser(call.parameter("id"))
        },
        GoTrueOperation(.get, "admin/users/{id}/factors", .admin) { store, call throws(GoTrueError) in
            try await store.adminFactors(ofUser: call.parameter("id"))
        },
        GoTrueOperation(.put, "admin/users/{id}/factors/{factor}", .admin) { store, call throws(GoTrueError) in
            try await store.adminUpdateFactor(
                call.parameter("factor"), ofUser: call.parameter("id"),
                friendlyName: call.body(EnrollFactorBody.self).friendlyName)
        },
        GoTrueOperation(.delete, "admin/users/{id}/factors/{factor}", .admin) { store, call throws(GoTrueError) in
            try await store.adminDeleteFactor(call.parameter("factor"), ofUser: call.parameter("id"))
        },
    ]

    /// `GET /admin/users?page=&per_page=`: one page, newest first, with GoTrue's `X-Total-Count`
    /// and `Link` (`rel="next"` while a later page exists, always `rel="last"`).
    static func listUsers(_ store: GoTrueStore, _ call: GoTrueCall) async throws(GoTrueError) -> Response {
        let query = call.query
        let page = try Self.paginationNumber(query["page"]) ?? 1
        let perPage = try Self.paginationNumber(query["per_page"]) ?? Self.defaultPerPage
        // GoTrue divides by per_page and fails with a 500 on 0; the emulator answers 400 instead.
        guard perPage > 0 else { throw .validation("Bad Pagination Parameters: per_page must be at least 1") }
        let newestFirst = try Self.sortNewestFirst(query["sort"])
        let (body, total) = await store.listUsers(
            page: max(1, page), perPage: perPage, newestFirst: newestFirst, filter: query["filter"] ?? "")
        let link = Self.paginationLink(
            path: call.request.decodedPath, query: query, page: page, perPage: perPage, total: total)
        return Response.json(body, headers: [Self.totalCountField: String(total), Self.linkField: link])
    }

    static let totalCountField = HTTPField.Name("X-Total-Count")!
    static let linkField = HTTPField.Name("Link")!

    /// `sort=created_at [asc|desc]` (sorting.go: `created_at` is the one field the list sorts by;
    /// descending when the direction is left out or the parameter absent).
    static func sortNewestFirst(_ value: String?) throws(GoTrueError) -> Bool {
        guard let value else { return true }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts[0] == "created_at" else {
            throw .validation("Bad Sort Parameters: bad field for sort '\(parts[0])'")
        }
        guard parts.count > 1 else { return true }
        guard let newestFirst = ["ASC": false, "DESC": true][parts[1].uppercased()] else {
            throw .validation(
                "Bad Sort Parameters: bad direction for sort '\(parts[1])', only 'asc' and 'desc' allowed")
        }
        return newestFirst
    }

    /// A `page` or `per_page` value: GoTrue parses it as an unsigned integer.
    static func paginationNumber(_ text: String?) throws(GoTrueError) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = UInt32(text) else {
            throw .validation("Bad Pagination Parameters: strconv.ParseUint: parsing \"\(text)\": invalid syntax")
        }
        return Int(value)
    }

    /// GoTrue's `Link` header: the request's URL with `page` replaced, other parameters kept and
    /// sorted by name as Go's `url.Values.Encode` does.
    static func paginationLink(path: String, query: [String: String], page: Int, perPage: Int, total: Int) -> String {
        let totalPages = (total + perPage - 1) / perPage
        func url(_ target: Int) -> String {
            var fields = query
            fields["page"] = String(target)
            let encoded = fields.sorted { $0.key < $1.key }
                .map { PercentEncoding.queryValue($0.key) + "=" + PercentEncoding.queryValue($0.value) }
            return "<" + path + "?" + encoded.joined(separator: "&") + ">"
        }
        var header = ""
        if totalPages > page { header += url(page + 1) + "; rel=\"next\", " }
        return header + url(totalPages) + "; rel=\"last\""
    }
}
