import Foundation
import SesameCore

extension FakeRemoteAuthProvider {
    public nonisolated func checkFederatedSignIn(providerId: String, yieldsIDToken: Bool) throws(RemoteAuthError) {}

    public func startBrowserSignIn(
        providerId: String, redirectUri: String
    ) async throws(RemoteAuthError) -> BrowserSignInStart {
        throw .unsupported("The fake backend has no browser sign-in yet.")
    }

    public func completeBrowserSignIn(
        _ start: BrowserSignInStart, callbackUrl: String, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> BrowserSignInCompletion {
        throw .unsupported("The fake backend has no browser sign-in yet.")
    }

    public func signIn(customToken: String) async throws(RemoteAuthError) -> SignInResult {
        throw .unsupported("The fake backend has no custom tokens yet.")
    }
}
