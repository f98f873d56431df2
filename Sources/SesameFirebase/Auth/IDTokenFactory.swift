import Foundation
import SesameCore

/// Builds ``IDToken`` values from an answer's raw JWT and `expiresIn`.
///
/// `issuedAt` is the injected "now" at the moment the answer arrived and `expiresAt` is
/// `now + expiresIn`, so the daemon's clock, not the token's `exp`, decides when to refresh.
struct IDTokenFactory: Sendable {
    let now: @Sendable () -> Date

    /// - Throws: ``RemoteAuthError/malformedResponse(_:)`` when the token is empty or
    ///   `expiresIn` is not a positive number of seconds.
    func make(rawValue: String, expiresIn: String, endpoint: FirebaseEndpoint) throws(RemoteAuthError) -> IDToken {
        guard !rawValue.isEmpty else {
            throw .malformedResponse("\(endpoint.name): empty ID token")
        }
        guard let seconds = Double(expiresIn.trimmingCharacters(in: .whitespaces)), seconds > 0, seconds.isFinite else {
            throw .malformedResponse("\(endpoint.name): expiresIn is not a positive number")
        }
        let issuedAt = now()
        return IDToken(
            rawValue: rawValue,
            expiresAt: issuedAt.addingTimeInterval(seconds),
            issuedAt: issuedAt,
            signInProvider: JWTClaims.signInProvider(of: rawValue)
        )
    }
}
