import SesameCore
import SesameLocalAPI

extension TokenFactory {
    /// The issuer of session cookies for `projectId`.
    var sessionCookieIssuer: String { "https://session.firebase.google.com/\(projectId)" }

    /// A session cookie made from a verified ID token's claims, as Google's emulator mints it: an
    /// unsigned JWT like the emulator's ID tokens, with every claim of the ID token but a fresh
    /// `iat`, `exp = iat + validDuration` and the session issuer.
    /// - Parameters:
    ///   - claims: the ID token's payload.
    ///   - issuedAt: seconds since 1970.
    ///   - validDuration: seconds the cookie lives.
    func sessionCookie(from claims: [String: JSONValue], issuedAt: Int, validDuration: Int) -> String {
        var payload = claims
        payload["iat"] = .int(issuedAt)
        payload["exp"] = .int(issuedAt + validDuration)
        payload["iss"] = .string(sessionCookieIssuer)
        return "\(Self.header).\(Base64URL.encode(JSONValue.object(payload).serialized()))."
    }
}
