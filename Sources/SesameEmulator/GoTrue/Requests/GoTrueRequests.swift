import Foundation
import SesameLocalAPI

/// Typed bodies of the GoTrue endpoints, with GoTrue's snake_case names. As in GoTrue (Go's
/// `encoding/json`), unknown fields are ignored, `null` counts as absent, and a field of the
/// wrong type is a 400 `bad_json`.

/// `POST /signup`: no email and no phone is an anonymous sign-up.
struct SignUpBody: Decodable, Sendable {
    var email: String?
    var phone: String?
    var password: String?
    var data: [String: JSONValue]?
}

/// `POST /token?grant_type=password`.
struct PasswordGrantBody: Decodable, Sendable {
    var email: String?
    var phone: String?
    var password: String?
}

/// `POST /token?grant_type=refresh_token`.
struct RefreshGrantBody: Decodable, Sendable {
    var refreshToken: String?

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// `POST /token?grant_type=id_token`: federated sign-in, or linking with `link_identity`.
struct IdTokenGrantBody: Decodable, Sendable {
    var provider: String?
    var idToken: String?
    var nonce: String?
    var linkIdentity: Bool?
    /// The deprecated alternative to `provider`: an allowed issuer with its client id.
    var clientId: String?
    var issuer: String?

    enum CodingKeys: String, CodingKey {
        case provider, nonce, issuer
        case idToken = "id_token"
        case linkIdentity = "link_identity"
        case clientId = "client_id"
    }
}

/// `POST /token?grant_type=pkce`.
struct PKCEGrantBody: Decodable, Sendable {
    var authCode: String?
    var codeVerifier: String?

    enum CodingKeys: String, CodingKey {
        case authCode = "auth_code"
        case codeVerifier = "code_verifier"
    }
}

/// `POST /otp` (email only; a phone is refused).
struct OTPBody: Decodable, Sendable {
    var email: String?
    var phone: String?
    var createUser: Bool?
    var data: [String: JSONValue]?
    var emailRedirectTo: String?

    enum CodingKeys: String, CodingKey {
        case email, phone, data
        case createUser = "create_user"
        case emailRedirectTo = "email_redirect_to"
    }
}

/// `POST /recover`.
struct RecoverBody: Decodable, Sendable {
    var email: String?
}

/// `POST /verify`, and the query of `GET /verify`: a `token_hash`, or a `token` with its `email`.
struct VerifyBody: Decodable, Sendable {
    var type: String?
    var token: String?
    var tokenHash: String?
    var email: String?
    /// A phone OTP (`type` `sms` or `phone_change`): answered as GoTrue with no phone users.
    var phone: String?

    enum CodingKeys: String, CodingKey {
        case type, token, email, phone
        case tokenHash = "token_hash"
    }
}

/// `PUT /user`. `app_metadata` is only read to refuse it (admin only).
struct UserUpdateBody: Decodable, Sendable {
    var email: String?
    var password: String?
    /// The `GET /reauthenticate` code (secure password change).
    var nonce: String?
    var data: [String: JSONValue]?
    var appMetadata: [String: JSONValue]?

    enum CodingKeys: String, CodingKey {
        case email, password, data, nonce
        case appMetadata = "app_metadata"
    }
}

/// `POST /admin/users` and `PUT /admin/users/{id}`.
struct AdminUserBody: Decodable, Sendable {
    var email: String?
    /// Read only to word the refusal: the emulator has no phone users.
    var phone: String?
    var password: String?
    var emailConfirm: Bool?
    var userMetadata: [String: JSONValue]?
    /// Older clients send the user metadata as `data`.
    var data: [String: JSONValue]?
    var appMetadata: [String: JSONValue]?
    var banDuration: String?

    enum CodingKeys: String, CodingKey {
        case email, phone, password, data
        case emailConfirm = "email_confirm"
        case userMetadata = "user_metadata"
        case appMetadata = "app_metadata"
        case banDuration = "ban_duration"
    }
}

/// `POST /admin/generate_link`.
struct GenerateLinkBody: Decodable, Sendable {
    var type: String?
    var email: String?
    var newEmail: String?
    var password: String?
    var redirectTo: String?
    var data: [String: JSONValue]?

    enum CodingKeys: String, CodingKey {
        case type, email, password, data
        case newEmail = "new_email"
        case redirectTo = "redirect_to"
    }
}

enum GoTrueRequestDecoding {
    /// Decodes a JSON body; a blank body is `{}`.
    /// - Throws: 400 `bad_json` for text that is not a JSON object, nests deeper than
    ///   ``JSON/maximumDepth`` (or is otherwise refused by ``JSONPrecheck``), or has a field of the wrong type (naming the field).
    static func decode<Body: Decodable>(_ type: Body.Type, from bytes: [UInt8]) throws(GoTrueError) -> Body {
        let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if let problem = JSONPrecheck.problem(in: bytes, maximumDepth: JSONCoding.maximumDepth) {
            throw .badJSON(problem)
        }
        do {
            return try JSONDecoder().decode(type, from: Data(blank ? Array("{}".utf8) : bytes))
        } catch DecodingError.typeMismatch(let expected, let context) where !context.codingPath.isEmpty {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw .badJSON("the field \(field) must be \(typeName(expected))")
        } catch DecodingError.typeMismatch {
            throw .badJSON("expected a JSON object")
        } catch {
            throw .badJSON("the body is not valid JSON")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Double.Type: return "a number"
        default: return "an object"
        }
    }
}
