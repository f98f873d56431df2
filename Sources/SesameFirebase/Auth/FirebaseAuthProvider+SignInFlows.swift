import Foundation
import SesameCore

// Placeholders of the sign-in flows' backend calls; the implementation replaces this file.
extension FirebaseAuthProvider {
    public func checkFederatedSignIn(providerId: String, yieldsIDToken: Bool) throws(RemoteAuthError) {}

    public func startBrowserSignIn(
        providerId: String, redirectUri: String
    ) async throws(RemoteAuthError) -> BrowserSignInStart {
        throw .unsupported("Browser sign-in is not available yet.")
    }

    public func completeBrowserSignIn(
        _ start: BrowserSignInStart, callbackUrl: String, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> BrowserSignInCompletion {
        throw .unsupported("Browser sign-in is not available yet.")
    }

    public func signIn(customToken: String) async throws(RemoteAuthError) -> SignInResult {
        throw .unsupported("Custom tokens are not available yet.")
    }
}
