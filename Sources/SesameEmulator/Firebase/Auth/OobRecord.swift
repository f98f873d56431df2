/// A pending out-of-band code (email link, password reset, email verification…).
/// Encodes in the form `GET /emulator/v1/projects/{p}/oobCodes` lists.
struct OobRecord: Sendable, Equatable, Encodable {
    var oobCode: String
    var email: String
    var requestType: String
    var oobLink: String
    var newEmail: String?
    /// The account the code acts on, when one is bound (VERIFY_EMAIL, RECOVER_EMAIL…).
    var localId: String?

    enum CodingKeys: String, CodingKey { case oobCode, email, requestType, oobLink, newEmail }
}
