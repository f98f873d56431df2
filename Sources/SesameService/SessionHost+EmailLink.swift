import Foundation
import Logging
import SesameCore

/// The sign-in link's steps the link and sign-in features share.
extension SessionHost {
    /// Asks the backend's adapter whether `proof` is a sign-in proof it takes, before anything
    /// is spent.
    func checkSignInProof(_ proof: EmailSignInProof) throws(AuthError) {
        do throws(RemoteAuthError) {
            try provider.checkSignInProof(proof)
        } catch {
            throw error.authError
        }
    }

    /// The address's sign-in methods at the backend; nil when the backend hides them.
    func signInMethods(forEmail email: String) async throws(AuthError) -> [String]? {
        let provider = self.provider
        return try await callMapped { () async throws(RemoteAuthError) in
            try await provider.signInMethods(forEmail: email)
        }
    }

    /// Forgets the remembered sign-in-link address when it is `email` (a link for it completed).
    @discardableResult
    func forgetEmailLinkAddress(_ email: String) async -> Bool {
        guard let remembered = persisted.emailLinkAddress, remembered.lowercased() == email.lowercased()
        else { return false }
        await apply(.emailLinkAddressChanged(nil))
        return true
    }
}
