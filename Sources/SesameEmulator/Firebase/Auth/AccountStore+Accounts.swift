import SesameLocalAPI

extension AccountStore {
    /// `accounts:lookup`, reference §4.7. `users` is omitted when nothing matches.
    func lookup(_ body: LookupRequest, privileged: Bool) throws(IdentityToolkitError) -> GetAccountInfoResponse {
        var found: [UserRecord] = []
        if let idToken = body.idToken.nonEmpty {
            found.append(try verifyIdToken(idToken).user)
        } else if !privileged {
            throw .invalid("MISSING_ID_TOKEN")
        } else {
            for uid in body.localId ?? [] { if let u = users[uid] { found.append(u) } }
            for email in body.email ?? [] { if let u = user(withEmail: email) { found.append(u) } }
            for phone in body.phoneNumber ?? [] { if let u = user(withPhone: phone) { found.append(u) } }
            for federated in body.federatedUserId ?? [] {
                guard let p = federated.providerId, let r = federated.rawId else { continue }
                if let u = user(withProvider: p, rawId: r) { found.append(u) }
            }
        }
        var seen: Set<String> = []
        let unique = found.filter { seen.insert($0.localId).inserted }
        return GetAccountInfoResponse(users: unique.isEmpty ? nil : unique.map { AccountInfo($0) })
    }

    /// `accounts:delete`, reference §4.8.
    func delete(_ body: DeleteRequest, privileged: Bool) throws(IdentityToolkitError) -> DeleteAccountResponse {
        let uid: String
        if let idToken = body.idToken.nonEmpty {
            let verified = try verifyIdToken(idToken)
            try checkRecentLogin(verified.payload)
            uid = verified.user.localId
        } else if privileged {
            guard let localId = body.localId.nonEmpty else { throw .invalid("MISSING_LOCAL_ID") }
            guard users[localId] != nil else { throw .invalid("USER_NOT_FOUND") }
            uid = localId
        } else {
            throw .invalid("MISSING_ID_TOKEN")
        }
        users[uid] = nil
        return DeleteAccountResponse()
    }

    /// `accounts:batchDelete` (privileged): deletes every listed account. Without `force`, an
    /// enabled account is kept and reported in `errors` (`NOT_DISABLED`), as Google's service does.
    func batchDelete(_ body: BatchDeleteRequest) throws(IdentityToolkitError) -> JSONValue {
        guard let ids = body.localIds else { throw .invalid("MISSING_LOCAL_ID") }
        if ids.count > 1000 { throw .invalid("TOO_MANY_IDS_TO_DELETE : Cannot delete more than 1000 accounts at once") }
        let force = body.force ?? false
        var errors: [JSONValue] = []
        for (index, uid) in ids.enumerated() {
            guard let user = users[uid] else { continue }
            if !force && !user.disabled {
                errors.append([
                    "index": .int(index), "localId": .string(uid),
                    "message": "NOT_DISABLED : Disable the account before batch deletion.",
                ])
                continue
            }
            users[uid] = nil
        }
        var response: [String: JSONValue] = ["kind": "identitytoolkit#BatchDeleteAccountsResponse"]
        if !errors.isEmpty { response["errors"] = .array(errors) }
        return .object(response)
    }

    /// `accounts:batchGet` (privileged GET): pages of accounts ordered by `localId`.
    func batchGet(_ body: BatchGetRequest) throws(IdentityToolkitError) -> DownloadAccountResponse {
        let maxResults = body.maxResults ?? 20
        if maxResults < 0 || maxResults > 1000 { throw .invalid("INVALID_PAGE_SELECTION") }
        let after = body.nextPageToken.nonEmpty
        let ordered = users.keys.sorted().filter { after == nil || $0 > after! }
        let page = ordered.prefix(maxResults)
        var response = DownloadAccountResponse(users: page.map { AccountInfo(users[$0]!) })
        if ordered.count > page.count, let last = page.last { response.nextPageToken = last }
        return response
    }

    /// `accounts:query` (privileged): filter by `expression[].email|userId|phoneNumber`, with
    /// `offset` and `limit`; `returnUserInfo: false` gives only the count.
    func query(_ body: QueryRequest) -> QueryAccountsResponse {
        var selected = users.values.sorted { $0.localId < $1.localId }
        if let expressions = body.expression, !expressions.isEmpty {
            var matches: [UserRecord] = []
            for e in expressions {
                if let email = e.email { matches += selected.filter { $0.email == email.lowercased() } }
                if let uid = e.userId { matches += selected.filter { $0.localId == uid } }
                if let phone = e.phoneNumber { matches += selected.filter { $0.phoneNumber == phone } }
            }
            var seen: Set<String> = []
            selected = matches.filter { seen.insert($0.localId).inserted }
        }
        let offset = max(0, body.offset ?? 0)
        let limit = max(0, body.limit ?? 500)
        let page = Array(selected.dropFirst(offset).prefix(limit))
        let userInfo = body.returnUserInfo ?? true ? page.map { AccountInfo($0) } : nil
        return QueryAccountsResponse(recordsCount: String(selected.count), userInfo: userInfo)
    }

    /// `accounts:createAuthUri`, reference §4.9 (hidden under email enumeration protection).
    /// With `providerId`, it starts a browser sign-in instead (``federatedAuthUri(providerId:continueUri:baseURL:)``).
    func createAuthUri(_ body: CreateAuthUriRequest, baseURL: String) throws(IdentityToolkitError) -> JSONValue {
        if let provider = body.providerId, !provider.isNull {
            guard let providerId = provider.stringValue else { throw .invalid("INVALID_PROVIDER_ID") }
            guard let continueUri = body.continueUri.nonEmpty else { throw .invalid("MISSING_CONTINUE_URI") }
            if !AccountStore.isAbsoluteURI(continueUri) { throw .invalid("INVALID_CONTINUE_URI") }
            return try federatedAuthUri(providerId: providerId, continueUri: continueUri, baseURL: baseURL)
        }
        guard let identifier = body.identifier.nonEmpty else { throw .invalid("MISSING_IDENTIFIER") }
        guard let continueUri = body.continueUri.nonEmpty else { throw .invalid("MISSING_CONTINUE_URI") }
        if !AccountStore.isValidEmail(identifier) { throw .invalid("INVALID_IDENTIFIER") }
        if !AccountStore.isAbsoluteURI(continueUri) { throw .invalid("INVALID_CONTINUE_URI") }
        let sessionId = body.sessionId.nonEmpty ?? RandomIdentifier.make(27, from: RandomIdentifier.alphanumerics)
        var response: [String: JSONValue] = [
            "kind": "identitytoolkit#CreateAuthUriResponse", "sessionId": .string(sessionId),
        ]
        if config.enableImprovedEmailPrivacy { return .object(response) }
        let email = identifier.lowercased()
        let match = users.values.sorted { $0.createdAt < $1.createdAt }.first { u in
            u.email == email || u.federatedProviders.contains { $0.email == email }
        }
        var methods: [String] = []
        var all: [String] = []
        if let match {
            if match.hasPassword { methods.append("password") }
            if match.emailLinkSignin { methods.append("emailLink") }
            if match.email != nil && (match.hasPassword || match.emailLinkSignin) { all.append("password") }
            let federated = match.federatedProviders.map(\.providerId)
            methods += federated
            all += federated
        }
        response["registered"] = .bool(match != nil)
        response["allProviders"] = .array(all.map(JSONValue.string))
        response["signinMethods"] = .array(methods.map(JSONValue.string))
        return .object(response)
    }

    // MARK: Emulator-only endpoints (§7)

    func deleteAllAccounts() -> JSONValue {
        users = [:]
        return [:]
    }

    func patchConfiguration(_ body: ConfigPatchRequest) -> JSONValue {
        if let allow = body.signIn?.allowDuplicateEmails { config.allowDuplicateEmails = allow }
        if let enable = body.emailPrivacyConfig?.enableImprovedEmailPrivacy {
            config.enableImprovedEmailPrivacy = enable
        }
        return config.json
    }

    /// Accounts and configuration in the Firebase emulator's export layout
    /// (`auth_export/accounts.json`, `auth_export/config.json`).
    func exportSnapshot() -> (accounts: DownloadAccountResponse, config: JSONValue) {
        (
            DownloadAccountResponse(users: users.keys.sorted().map { AccountInfo(users[$0]!, revealingSecrets: true) }),
            config.json
        )
    }

    /// Replaces accounts (and, when given, configuration) with an exported snapshot.
    func importSnapshot(accounts: JSONValue, config configJSON: JSONValue?) {
        var imported: [String: UserRecord] = [:]
        for entry in accounts["users"]?.arrayValue ?? [] {
            if let user = UserRecord(exportJSON: entry) { imported[user.localId] = user }
        }
        users = imported
        if let configJSON, let patch = try? JSONCoding.decode(ConfigPatchRequest.self, from: configJSON.serialized()) {
            _ = patchConfiguration(patch)
        }
    }
}
