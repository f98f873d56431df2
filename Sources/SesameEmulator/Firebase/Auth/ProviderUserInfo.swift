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
        guard let providerId = json["providerId"]?.stringValue, let rawId = json["rawId"]?.stringValue else {
            return nil
        }
        self.providerId = providerId
        self.rawId = rawId
        federatedId = json["federatedId"]?.stringValue
        email = json["email"]?.stringValue
        displayName = json["displayName"]?.stringValue
        photoUrl = json["photoUrl"]?.stringValue
        screenName = json["screenName"]?.stringValue
        phoneNumber = json["phoneNumber"]?.stringValue
    }
}
