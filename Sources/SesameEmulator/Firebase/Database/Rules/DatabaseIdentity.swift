import Hummingbird
import SesameLocalAPI

/// Who a database request speaks for, as the rules see it.
enum DatabaseIdentity: Sendable, Equatable {
    /// `Authorization: Bearer owner` (or `access_token=owner`): rules are skipped, as in
    /// Google's emulator (firebase-tools and the Admin SDKs send it).
    case owner
    /// Rules are evaluated with this `auth` (`.null`: unauthenticated).
    case user(auth: JSONValue)
    /// The request named a credential that does not decode or has expired; refused (401 with
    /// this text) wherever rules are enforced.
    case invalid(String)

    /// The identity of `request`: `auth_variable_override` (JSON) first, as the REST API has;
    /// then the owner credential; then an ID token in `auth=`, `access_token=` or
    /// `Authorization: Bearer`; else unauthenticated.
    /// - Parameter now: seconds since 1970, for the token's `exp`.
    static func of(_ request: Request, query: [String: String], now: Int) -> DatabaseIdentity {
        if let text = query["auth_variable_override"] {
            guard let override = try? JSONCoding.parse(text), override.isNull || override.objectValue != nil
            else { return .invalid("Invalid auth_variable_override: expected a JSON object or null.") }
            return .user(auth: override)
        }
        var bearer: String?
        if let header = request.header("authorization"), header.lowercased().hasPrefix("bearer ") {
            bearer = header.dropFirst("bearer ".count).split(separator: " ").first.map(String.init)
        }
        let token = query["auth"] ?? query["access_token"] ?? bearer
        guard let token, !token.isEmpty else { return .user(auth: .null) }
        if token.lowercased() == "owner" { return .owner }
        return idToken(token, now: now)
    }

    /// An ID token of the emulator's auth port (unsigned, `alg: none`, as Google's emulator
    /// issues them): its claims become `auth.token`, its `sub` `auth.uid`.
    static func idToken(_ token: String, now: Int) -> DatabaseIdentity {
        guard let (_, payload) = TokenFactory.decodeJWT(token),
            let uid = payload["sub"]?.stringValue ?? payload["user_id"]?.stringValue, !uid.isEmpty
        else { return .invalid("Could not parse auth token.") }
        if let exp = payload["exp"]?.int64Value, exp <= now { return .invalid("Auth token is expired") }
        let provider = payload["firebase"]?["sign_in_provider"]?.stringValue ?? "custom"
        return .user(auth: ["uid": .string(uid), "provider": .string(provider), "token": .object(payload)])
    }
}
