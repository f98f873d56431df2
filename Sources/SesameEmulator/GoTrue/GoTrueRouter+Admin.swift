import Hummingbird
import SesameCore
import SesameLocalAPI

/// `/admin/*` and `/invite`, behind a service_role bearer.
extension GoTrueRouter {
    /// GoTrue's page size when `per_page` is absent (`pagination.go` `defaultPerPage`).
    static let defaultPerPage = 50

    func addAdminRoutes(to router: Router<EmulatorRequestContext>) {
        on(router, "admin/users", .get, admin: true) { request, _ throws(GoTrueError) in
            try await listUsers(request)
        }
        on(router, "invite", .post, admin: true) { request, call throws(GoTrueError) in
            .json(
                try await store.invite(
                    try Self.body(RecoverBody.self, request), origin: call.origin,
                    redirectTo: Self.redirectTo(request)))
        }
        on(router, "admin/users", .post, admin: true) { request, _ throws(GoTrueError) in
            .json(try await store.adminCreateUser(try Self.body(AdminUserBody.self, request)))
        }
        on(router, "admin/generate_link", .post, admin: true) { request, call throws(GoTrueError) in
            .json(try await store.generateLink(try Self.body(GenerateLinkBody.self, request), origin: call.origin))
        }
        on(router, "admin/users/{id}", .get, admin: true) { request, _ throws(GoTrueError) in
            .json(try await store.adminUser(request.parameters["id"] ?? "").json)
        }
        on(router, "admin/users/{id}", .put, admin: true) { request, _ throws(GoTrueError) in
            .json(
                try await store.adminUpdateUser(
                    request.parameters["id"] ?? "", try Self.body(AdminUserBody.self, request)))
        }
        on(router, "admin/users/{id}", .delete, admin: true) { request, _ throws(GoTrueError) in
            .json(try await store.adminDeleteUser(request.parameters["id"] ?? ""))
        }
        on(router, "admin/users/{id}/factors", .get, admin: true) { request, _ throws(GoTrueError) in
            .json(try await store.adminFactors(ofUser: request.parameters["id"] ?? ""))
        }
        on(router, "admin/users/{id}/factors/{factor}", .put, admin: true) { request, _ throws(GoTrueError) in
            .json(
                try await store.adminUpdateFactor(
                    request.parameters["factor"] ?? "", ofUser: request.parameters["id"] ?? "",
                    friendlyName: try Self.body(EnrollFactorBody.self, request).friendlyName))
        }
        on(router, "admin/users/{id}/factors/{factor}", .delete, admin: true) { request, _ throws(GoTrueError) in
            .json(
                try await store.adminDeleteFactor(
                    request.parameters["factor"] ?? "", ofUser: request.parameters["id"] ?? ""))
        }
    }

    /// The `redirect_to` query parameter supabase-auth sends, when not empty.
    static func redirectTo(_ request: EmulatorRequest) -> String? {
        request.query["redirect_to"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `GET /admin/users?page=&per_page=`: one page, newest first, with GoTrue's `X-Total-Count`
    /// and `Link` (`rel="next"` while a later page exists, always `rel="last"`).
    private func listUsers(_ request: EmulatorRequest) async throws(GoTrueError) -> EmulatorReply {
        let page = try Self.paginationNumber(request.query["page"]) ?? 1
        let perPage = try Self.paginationNumber(request.query["per_page"]) ?? Self.defaultPerPage
        // GoTrue divides by per_page and fails with a 500 on 0; the emulator answers 400 instead.
        guard perPage > 0 else { throw .validation("Bad Pagination Parameters: per_page must be at least 1") }
        let newestFirst = try Self.sortNewestFirst(request.query["sort"])
        let (body, total) = await store.listUsers(
            page: max(1, page), perPage: perPage, newestFirst: newestFirst, filter: request.query["filter"] ?? "")
        let link = Self.paginationLink(
            path: request.path, query: request.query, page: page, perPage: perPage, total: total)
        return .json(body, headers: [("X-Total-Count", String(total)), ("Link", link)])
    }

    /// `sort=created_at [asc|desc]` (sorting.go: `created_at` is the one field the list sorts by;
    /// descending when the direction is left out or the parameter absent).
    static func sortNewestFirst(_ value: String?) throws(GoTrueError) -> Bool {
        guard let value else { return true }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts[0] == "created_at" else {
            throw .validation("Bad Sort Parameters: bad field for sort '\(parts[0])'")
        }
        guard parts.count > 1 else { return true }
        switch parts[1].uppercased() {
        case "ASC": return false
        case "DESC": return true
        default:
            throw .validation(
                "Bad Sort Parameters: bad direction for sort '\(parts[1])', only 'asc' and 'desc' allowed")
        }
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
