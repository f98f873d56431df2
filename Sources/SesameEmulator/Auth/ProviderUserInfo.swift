/// One identity provider linked to an account (`providerUserInfo[]` in Identity Toolkit).
///
/// Federated entries are stored on the account; the `password` and `phone` entries are derived
/// from the account's email/password and phone number when the record is rendered.
struct ProviderUserInfo: Sendable, Equatable {
    var providerId: String
    var rawId: String
    var federatedId: String?
    var email: String?
    var displayName: String?
    var photoUrl: String?
    var screenName: String?
    var phoneNumber: String?

    /// The Identity Toolkit JSON form; unset fields are omitted.
    var json: JSON {
        var o: [String: JSON] = ["providerId": .string(providerId), "rawId": .string(rawId)]
        o["federatedId"] = federatedId.map(JSON.string)
        o["email"] = email.map(JSON.string)
        o["displayName"] = displayName.map(JSON.string)
        o["photoUrl"] = photoUrl.map(JSON.string)
        o["screenName"] = screenName.map(JSON.string)
        o["phoneNumber"] = phoneNumber.map(JSON.string)
        return .object(o)
    }

    /// Reads an entry written by ``json`` (used by import).
    init?(json: JSON) {
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

    init(
        providerId: String, rawId: String, federatedId: String? = nil, email: String? = nil,
        displayName: String? = nil, photoUrl: String? = nil, screenName: String? = nil, phoneNumber: String? = nil
    ) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.screenName = screenName
        self.phoneNumber = phoneNumber
    }
}
