import Foundation
import Logging
import SesameCore

/// How `linkCredential` performs each action of its ``CredentialLink`` machine, with what the
/// link answered.
struct CredentialLinkFlow {
    typealias Step = StepResult<CredentialLink.Event, Result<AuthState, AuthError>>

    let credential: Credential
    private var result: SignInResult?
    private var session: Session?

    init(credential: Credential) {
        self.credential = credential
    }

    mutating func perform(
        _ action: CredentialLink.Action, in host: isolated some SessionHost
    ) async throws(AuthError) -> Step {
        switch action {
        case .checkEmail(let email):
            return .next(.signInMethods(try await host.signInMethods(forEmail: email)))
        case .link:
            let linked = try await link(in: host)
            let made = await host.makeSession(from: linked)
            result = linked
            session = made
            return .next(.linked(uid: made.uid, email: made.user.email))
        case .adoptLinked:
            if let session { await host.applyLinked(session) }
            return .next(.adopted)
        case .adoptUpdated:
            if let session {
                host.logger.info(
                    "Linked a sign-in method",
                    metadata: ["session.uid": "\(session.uid)", "provider": "\(credential.providerId)"])
                await host.apply(.updated(session))
            }
            return .next(.adopted)
        case .adoptAsSignIn:
            // Never expected from a link; treat it as a sign-in so nothing is lost.
            if let result { _ = await host.adopt(result) }
            return .next(.adopted)
        case .syncUsernameEmail:
            if let session { await host.features.usernames?.syncEmail(of: session, in: host) }
            return .next(.synced)
        case .forgetEmailLinkAddress(let email):
            await host.forgetEmailLinkAddress(email)
            return .next(.forgotten)
        case .done:
            return .finished(.success(host.state))
        case .fail(let error):
            return .finished(.failure(error))
        }
    }

    /// The link call, with a fresh token of the current account.
    private func link(in host: isolated some SessionHost) async throws(AuthError) -> SignInResult {
        let provider = host.provider
        switch credential {
        case .password(let email, let password):
            return try await host.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signUp(email: email, password: password, linkingTo: token)
            }
        case .emailLink(let email, let link):
            let proof = EmailSignInProof.link(link)
            return try await host.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signIn(email: email, proof: proof, linkingTo: token)
            }
        case .federated(let providerId, let idToken, let accessToken):
            let federated = FederatedCredential(providerId: providerId, idToken: idToken, accessToken: accessToken)
            return try await host.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signIn(federated: federated, linkingTo: token)
            }
        }
    }
}
