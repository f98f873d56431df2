import SesameLocalAPI

/// A pending out-of-band code (email link, password reset, email verification…).
struct OobRecord: Sendable, Equatable {
    var oobCode: String
    var email: String
    var requestType: String
    var oobLink: String
    var newEmail: String?
    /// The account the code acts on, when one is bound (VERIFY_EMAIL, RECOVER_EMAIL…).
    var localId: String?

    /// The form `GET /emulator/v1/projects/{p}/oobCodes` lists.
    var json: JSONValue {
        var o: [String: JSONValue] = [
            "email": .string(email), "oobCode": .string(oobCode), "oobLink": .string(oobLink),
            "requestType": .string(requestType),
        ]
        o["newEmail"] = newEmail.map(JSONValue.string)
        return .object(o)
    }
}
