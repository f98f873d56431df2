import Foundation
import SesameCore

/// The fake's sign-out scopes: `.all` ends every session of the token's account; `.others`
/// is recorded only (the fake keeps one session per account, so there are no others).
/// ``revokedScopes`` lists the scopes of the calls that succeeded, in order.
extension FakeRemoteAuthProvider {
    public func revokeSessions(_ idToken: IDToken, scope: SessionRevocationScope) async throws(RemoteAuthError) {
        try enter("revokeSessions")
        let account = try owner(of: idToken)
        revokedScopes.append(scope)
        if scope == .all { refreshOwners = refreshOwners.filter { $0.value != account.uid } }
    }
}
