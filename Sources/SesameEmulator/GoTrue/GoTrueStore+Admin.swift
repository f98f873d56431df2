import Foundation
import SesameLocalAPI

/// `/admin/users` (create, list, get, update, delete); the caller is checked by the router.
extension GoTrueStore {
    /// `GET /admin/users?page=&per_page=&sort=&filter=`: by `created_at` (newest first unless
    /// `asc`; ties by `id` the same way, as GoTrue's keyset order), only the users whose email
    /// contains `filter` or whose `full_name` contains it in any case (models/user.go's `LIKE` and
    /// `ILIKE`); returns one page and the total count of the filtered list.
    func listUsers(page: Int, perPage: Int, newestFirst: Bool = true, filter: String = "") -> (JSONValue, Int) {
        let matching = users.all.filter { user in
            filter.isEmpty || user.email?.contains(filter) == true
                || user.userMetadata["full_name"]?.stringValue?.lowercased().contains(filter.lowercased()) == true
        }
        let all = matching.sorted {
            newestFirst ? ($0.createdAt, $0.id) > ($1.createdAt, $1.id) : ($0.createdAt, $0.id) < ($1.createdAt, $1.id)
        }
        let start = min(all.count, max(0, page - 1) * perPage)
        let slice = all[start..<min(all.count, start + perPage)]
        return (["users": .array(slice.map(\.json)), "aud": "authenticated"], all.count)
    }

    /// The user of `/admin/users/{id}` (GoTrue's `loadUser`: both refusals are 404s).
    func adminUser(_ id: String) throws(GoTrueError) -> GoTrueUser {
        guard UUID(uuidString: id) != nil else { throw .notFound("validation_failed", "user_id must be an UUID") }
        guard let user = users[id.lowercased()] else { throw .adminUserNotFound }
        return user
    }

    /// `POST /admin/users`.
    func adminCreateUser(_ body: AdminUserBody) throws(GoTrueError) -> JSONValue {
        guard let raw = body.email, !raw.isEmpty else {
            // GoTrue's words when neither is given (admin.go); a phone alone is refused: no phone users here.
            guard let phone = body.phone, !phone.isEmpty else {
                throw .validation("Cannot create a user without either an email or phone")
            }
            throw .validation("An email address is required (this emulator does not support phone users)")
        }
        let email = try Self.validEmail(raw)
        if users.with(email: email) != nil { throw .emailExists }
        let password = try body.password.nonEmpty.map { (p: String) throws(GoTrueError) in try Self.storedPassword(p) }
        let bannedUntil = try bannedUntil(body.banDuration, current: nil)
        var user = addUser(
            email: email, metadata: body.userMetadata ?? body.data, password: password,
            confirmed: body.emailConfirm == true)
        for (key, value) in body.appMetadata ?? [:] { user.appMetadata[key] = value }
        user.bannedUntil = bannedUntil
        users[user.id] = user
        return user.json
    }

    /// `PUT /admin/users/{id}`.
    func adminUpdateUser(_ id: String, _ body: AdminUserBody) throws(GoTrueError) -> JSONValue {
        var user = try adminUser(id)
        if let raw = body.email, !raw.isEmpty {
            let email = try Self.validEmail(raw)
            if let other = users.with(email: email), other.id != user.id { throw .emailExists }
            user.email = email
            user.newEmail = nil
            user.ensureEmailIdentity(now: now)
        }
        if let password = body.password.nonEmpty { user.password = try Self.storedPassword(password) }
        if let confirm = body.emailConfirm {
            user.emailConfirmedAt = confirm ? (user.emailConfirmedAt ?? now) : nil
            // GoTrue admin.go: confirming an email makes an anonymous user permanent.
            if confirm, user.email != nil { user.isAnonymous = false }
        }
        user.userMetadata.mergeMetadata(body.userMetadata)
        user.appMetadata.mergeMetadata(body.appMetadata)
        user.bannedUntil = try bannedUntil(body.banDuration, current: user.bannedUntil)
        user.updatedAt = now
        users[user.id] = user
        return user.json
    }

    /// `DELETE /admin/users/{id}`: the user, its sessions and its PostgREST rows go.
    func adminDeleteUser(_ id: String) throws(GoTrueError) -> JSONValue {
        deleteUser(try adminUser(id).id)
        return [:]
    }

    /// `ban_duration`: `none` lifts a ban, `<n>h`, `<n>m`, `<n>s` (or `1h30m`) set one, absent keeps `current`.
    private func bannedUntil(_ value: String?, current: Int?) throws(GoTrueError) -> Int? {
        guard let text = value, !text.isEmpty else { return current }
        if text == "none" { return nil }
        // GoTrue parses it with Go's time.ParseDuration and words a failure with Go's error.
        let quoted = "\"\(text)\""
        func refuse(_ problem: String) -> GoTrueError {
            .validation("invalid format for ban duration: time: \(problem)")
        }
        var seconds = 0
        var digits = ""
        var unit = ""
        for c in text + "0" {
            if c.isNumber {
                if !unit.isEmpty {
                    guard let n = Int(digits), let scale = ["h": 3600, "m": 60, "s": 1][unit] else {
                        throw digits.isEmpty
                            ? refuse("invalid duration \(quoted)")
                            : refuse("unknown unit \"\(unit)\" in duration \(quoted)")
                    }
                    seconds += n * scale
                    (digits, unit) = ("", "")
                }
                digits.append(c)
            } else {
                guard !digits.isEmpty else { throw refuse("invalid duration \(quoted)") }
                unit.append(c)
            }
        }
        // The "0" appended above closes the last unit; a number left without one is Go's error.
        guard digits == "0" else { throw refuse("missing unit in duration \(quoted)") }
        return now + seconds * 1000
    }
}

extension [String: JSONValue] {
    /// Applies a metadata update: a `null` value removes its key.
    mutating func mergeMetadata(_ update: [String: JSONValue]?) {
        for (key, value) in update ?? [:] { self[key] = value.isNull ? nil : value }
    }
}
