import SesameLocalAPI

extension AccountStore {
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
