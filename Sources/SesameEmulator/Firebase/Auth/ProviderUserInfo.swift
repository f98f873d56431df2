import SesameLocalAPI

/// One identity provider linked to an account (`providerUserInfo[]` in Identity Toolkit).
///
/// Federated entries are stored on the account; the `password` and `phone` entries are derived
/// from the account's email/password and phone number when the record is rendered. Encodes in
/// the Identity Toolkit form, unset fields omitted.
struct ProviderUserInfo: Sendable, Equatable, Encodable {
    var providerId: String
    var rawId: String
    var federatedId: String?
    var email: String?
    var displayName: String?
    var photoUrl: String?
    var screenName: String?
    var phoneNumber: String?
}

extension ProviderUserInfo {
    /// Reads an exported entry (used by import).
    init?(json: JSONValue) {
        let text = { (key: String) in json[key]?.stringValue }
        guard let providerId = text("providerId"), let rawId = text("rawId") else { return nil }
        self.init(
            providerId: providerId, rawId: rawId, federatedId: text("federatedId"), email: text("email"),
            displayName: text("displayName"), photoUrl: text("photoUrl"), screenName: text("screenName"),
            phoneNumber: text("phoneNumber"))
    }
}
