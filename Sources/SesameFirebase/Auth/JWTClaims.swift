import Foundation
import SesameHTTP

/// Reads claims from a JWT's payload without verifying it (the daemon trusts the backend that
/// just issued the token; verification is the business of whoever receives it).
enum JWTClaims {
    /// `firebase.sign_in_provider` of `jwt`, or `"unknown"` when the token cannot be decoded.
    static func signInProvider(of jwt: String) -> String {
        guard let payload = payload(of: jwt),
            let firebase = payload["firebase"] as? [String: Any],
            let provider = firebase["sign_in_provider"] as? String, !provider.isEmpty
        else { return "unknown" }
        return provider
    }

    static func payload(of jwt: String) -> [String: Any]? { JWTPayload.claims(of: jwt) }
}
