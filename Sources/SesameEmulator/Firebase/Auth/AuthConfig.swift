import SesameLocalAPI

/// The emulator's project configuration (`/emulator/v1/projects/{p}/config`).
struct AuthConfig: Sendable, Equatable {
    var allowDuplicateEmails = false
    var enableImprovedEmailPrivacy = false

    var json: JSONValue {
        [
            "signIn": ["allowDuplicateEmails": .bool(allowDuplicateEmails)],
            "emailPrivacyConfig": ["enableImprovedEmailPrivacy": .bool(enableImprovedEmailPrivacy)],
        ]
    }
}
