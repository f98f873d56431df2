/// The error body of Google REST APIs: `{"error":{"code":400,"message":"CODE : detail",
/// "status":…,"errors":[…]}}` (docs/firebase.md, "Endpoints").
struct FirebaseErrorEnvelope: Decodable, Sendable {
    struct Body: Decodable, Sendable {
        var code: Int?
        var message: String?
        var status: String?
    }

    var error: Body

    /// The code of `error.message`, if it starts with one.
    var code: FirebaseErrorCode? {
        error.message.flatMap(FirebaseErrorCode.init(message:))
    }
}
