import Foundation
import SesameCore
import SesameLocalAPI
import SesameTesting

/// The Firebase side of ``EmulatorProcess``: the Auth emulator's admin and emulator-only
/// endpoints on the auth port.
extension EmulatorProcess {
    /// The account record, through the admin API (Firebase's `accounts:lookup` shape).
    func account(_ uid: String) async throws -> JSONValue? {
        let (_, body) = try await request(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/accounts:lookup",
            json: ["localId": [.string(uid)]], bearerOwner: true)
        return body["users"]?.arrayValue?.first
    }

    /// The newest out-of-band link sent to an address, of a request type.
    func oobLink(email: String, requestType: String = "EMAIL_SIGNIN") async throws -> String? {
        try await EmulatorHTTP().oobCodes("http://\(authHost)").last {
            $0["email"]?.stringValue == email.lowercased() && $0["requestType"]?.stringValue == requestType
        }?["oobLink"]?.stringValue
    }

    func firebaseDeleteAccount(_ uid: String) async throws {
        try await request(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/accounts:delete",
            json: ["localId": .string(uid)], bearerOwner: true)
    }

    func firebaseSignUp(email: String, password: String) async throws -> String {
        let (_, body) = try await request(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test",
            json: ["email": .string(email), "password": .string(password), "returnSecureToken": true])
        guard let uid = body["localId"]?.stringValue else { throw HarnessError("sign-up failed: \(body.jsonString)") }
        return uid
    }

    func firebaseIdpSignIn(_ idToken: String) async throws -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = idToken.addingPercentEncoding(withAllowedCharacters: allowed) ?? idToken
        let (_, body) = try await request(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
            json: [
                "postBody": .string("providerId=google.com&id_token=" + encoded), "requestUri": "http://localhost",
                "returnSecureToken": true,
            ])
        guard let uid = body["localId"]?.stringValue else {
            throw HarnessError("signInWithIdp failed: \(body.jsonString)")
        }
        return uid
    }

    /// An `accounts:lookup` record as a ``BackendAccount``.
    static func backendAccount(firebaseRecord record: JSONValue) -> BackendAccount {
        let providers = record["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } ?? []
        return BackendAccount(
            email: record["email"]?.stringValue, providers: providers.sorted(),
            isAnonymous: providers.isEmpty && record["email"]?.stringValue == nil)
    }
}
