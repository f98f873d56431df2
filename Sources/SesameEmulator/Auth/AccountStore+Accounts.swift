extension AccountStore {
    /// `accounts:lookup`, reference §4.7. `users` is omitted when nothing matches.
    func lookup(_ body: AuthRequestBody, privileged: Bool) throws(IdentityToolkitError) -> JSON {
        var found: [UserRecord] = []
        if let idToken = try body.nonEmpty("idToken") {
            found.append(try verifyIdToken(idToken).user)
        } else if !privileged {
            throw .invalid("MISSING_ID_TOKEN")
        } else {
            for uid in try body.stringArray("localId") ?? [] { if let u = users[uid] { found.append(u) } }
            for email in try body.stringArray("email") ?? [] { if let u = user(withEmail: email) { found.append(u) } }
            for phone in try body.stringArray("phoneNumber") ?? [] { if let u = user(withPhone: phone) { found.append(u) } }
            for federated in try body.objectArray("federatedUserId") ?? [] {
                if let p = try federated.string("providerId"), let r = try federated.string("rawId"),
                    let u = user(withProvider: p, rawId: r)
                {
                    found.append(u)
                }
            }
        }
        var seen: Set<String> = []
        let unique = found.filter { seen.insert($0.localId).inserted }
        var response: [String: JSON] = ["kind": "identitytoolkit#GetAccountInfoResponse"]
        if !unique.isEmpty { response["users"] = .array(unique.map(\.json)) }
        return .object(response)
    }

    /// `accounts:delete`, reference §4.8.
    func delete(_ body: AuthRequestBody, privileged: Bool) throws(IdentityToolkitError) -> JSON {
        let uid: String
        if let idToken = try body.nonEmpty("idToken") {
            uid = try verifyIdToken(idToken).user.localId
        } else if privileged {
            guard let localId = try body.nonEmpty("localId") else { throw .invalid("MISSING_LOCAL_ID") }
            guard users[localId] != nil else { throw .invalid("USER_NOT_FOUND") }
            uid = localId
        } else {
            throw .invalid("MISSING_ID_TOKEN")
        }
        users[uid] = nil
        return ["kind": "identitytoolkit#DeleteAccountResponse"]
    }

    /// `accounts:batchDelete` (privileged): deletes every listed account. Without `force`, an
    /// enabled account is kept and reported in `errors` (`NOT_DISABLED`), as Google's service does.
    func batchDelete(_ body: AuthRequestBody) throws(IdentityToolkitError) -> JSON {
        guard let ids = try body.stringArray("localIds") else { throw .invalid("MISSING_LOCAL_ID") }
        if ids.count > 1000 { throw .invalid("TOO_MANY_IDS_TO_DELETE : Cannot delete more than 1000 accounts at once") }
        let force = try body.bool("force") ?? false
        var errors: [JSON] = []
        for (index, uid) in ids.enumerated() {
            guard let user = users[uid] else { continue }
            if !force && !user.disabled {
                errors.append(["index": .int(index), "localId": .string(uid), "message": "NOT_DISABLED : Disable the account before batch deletion."])
                continue
            }
            users[uid] = nil
        }
        var response: [String: JSON] = ["kind": "identitytoolkit#BatchDeleteAccountsResponse"]
        if !errors.isEmpty { response["errors"] = .array(errors) }
        return .object(response)
    }

    /// `accounts:batchGet` (privileged GET): pages of accounts ordered by `localId`.
    func batchGet(_ body: AuthRequestBody) throws(IdentityToolkitError) -> JSON {
        let maxResults = try body.int("maxResults") ?? 20
        if maxResults < 0 || maxResults > 1000 { throw .invalid("INVALID_PAGE_SELECTION") }
        let after = try body.nonEmpty("nextPageToken")
        let ordered = users.keys.sorted().filter { after == nil || $0 > after! }
        let page = ordered.prefix(maxResults)
        var response: [String: JSON] = [
            "kind": "identitytoolkit#DownloadAccountResponse",
            "users": .array(page.map { users[$0]!.json }),
        ]
        if ordered.count > page.count, let last = page.last { response["nextPageToken"] = .string(last) }
        return .object(response)
    }

    /// `accounts:query` (privileged): filter by `expression[].email|userId|phoneNumber`, with
    /// `offset` and `limit`; `returnUserInfo: false` gives only the count.
    func query(_ body: AuthRequestBody) throws(IdentityToolkitError) -> JSON {
        var selected = users.values.sorted { $0.localId < $1.localId }
        if let expressions = try body.objectArray("expression"), !expressions.isEmpty {
            var matches: [UserRecord] = []
            for e in expressions {
                if let email = try e.string("email") { matches += selected.filter { $0.email == email.lowercased() } }
                if let uid = try e.string("userId") { matches += selected.filter { $0.localId == uid } }
                if let phone = try e.string("phoneNumber") { matches += selected.filter { $0.phoneNumber == phone } }
            }
            var seen: Set<String> = []
            selected = matches.filter { seen.insert($0.localId).inserted }
        }
        let offset = max(0, try body.int("offset") ?? 0)
        let limit = max(0, try body.int("limit") ?? 500)
        let page = Array(selected.dropFirst(offset).prefix(limit))
        var response: [String: JSON] = ["recordsCount": .string(String(selected.count))]
        if try body.bool("returnUserInfo") ?? true { response["userInfo"] = .array(page.map(\.json)) }
        return .object(response)
    }

    /// `accounts:createAuthUri`, reference §4.9 (hidden under email enumeration protection).
    func createAuthUri(_ body: AuthRequestBody) throws(IdentityToolkitError) -> JSON {
        guard let identifier = try body.nonEmpty("identifier") else { throw .invalid("MISSING_IDENTIFIER") }
        guard let continueUri = try body.nonEmpty("continueUri") else { throw .invalid("MISSING_CONTINUE_URI") }
        if body.has("providerId") { throw .notImplemented("NOT_IMPLEMENTED : providerId is not supported") }
        if !AccountStore.isValidEmail(identifier) { throw .invalid("INVALID_IDENTIFIER") }
        if !AccountStore.isAbsoluteURI(continueUri) { throw .invalid("INVALID_CONTINUE_URI") }
        let sessionId = try body.nonEmpty("sessionId") ?? RandomIdentifier.make(27, from: RandomIdentifier.alphanumerics)
        var response: [String: JSON] = ["kind": "identitytoolkit#CreateAuthUriResponse", "sessionId": .string(sessionId)]
        if config.enableImprovedEmailPrivacy { return .object(response) }
        let email = identifier.lowercased()
        let match = users.values.sorted { $0.createdAt < $1.createdAt }.first { u in
            u.email == email || u.federatedProviders.contains { $0.email == email }
        }
        var methods: [String] = []
        var all: [String] = []
        if let match {
            if match.password != nil { methods.append("password") }
            if match.emailLinkSignin { methods.append("emailLink") }
            if match.email != nil && (match.password != nil || match.emailLinkSignin) { all.append("password") }
            for p in match.federatedProviders {
                methods.append(p.providerId)
                all.append(p.providerId)
            }
        }
        response["registered"] = .bool(match != nil)
        response["allProviders"] = .array(all.map(JSON.string))
        response["signinMethods"] = .array(methods.map(JSON.string))
        return .object(response)
    }

    // MARK: Emulator-only endpoints (§7)

    func listOobCodes() -> JSON {
        ["oobCodes": .array(oobCodes.map(\.json))]
    }

    func deleteAllAccounts() -> JSON {
        users = [:]
        return [:]
    }

    func configuration() -> JSON { config.json }

    func patchConfiguration(_ body: AuthRequestBody) throws(IdentityToolkitError) -> JSON {
        if let signIn = try body.object("signIn"), let allow = signIn["allowDuplicateEmails"] {
            guard let b = allow.boolValue else { throw .invalidArgument("Invalid JSON payload received. /signIn/allowDuplicateEmails should be boolean") }
            config.allowDuplicateEmails = b
        }
        if let privacy = try body.object("emailPrivacyConfig"), let enable = privacy["enableImprovedEmailPrivacy"] {
            guard let b = enable.boolValue else {
                throw .invalidArgument("Invalid JSON payload received. /emailPrivacyConfig/enableImprovedEmailPrivacy should be boolean")
            }
            config.enableImprovedEmailPrivacy = b
        }
        return config.json
    }
}
