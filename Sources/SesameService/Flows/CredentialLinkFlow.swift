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
        _ action: CredentialLink.Action, in service: isolated SessionService
    ) async throws(AuthError) -> Step {
        switch action {
        case .checkEmail(let email):
            return .next(.signInMethods(try await service.signInMethods(forEmail: email)))
        case .link:
            let linked = try await link(in: service)
            let made = await service.makeSession(from: linked)
            result = linked
            session = made
            return .next(.linked(uid: made.uid, email: made.user.email))
        case .adoptLinked:
            if let session { await service.applyLinked(session) }
            return .next(.adopted)
        case .adoptUpdated:
            if let session {
                service.logger.info(
                    "Linked a sign-in method",
                    metadata: ["session.uid": "\(session.uid)", "provider": "\(credential.providerId)"])
                await service.apply(.updated(session))
            }
            return .next(.adopted)
        case .adoptAsSignIn:
            // Never expected from a link; treat it as a sign-in so nothing is lost.
            if let result { _ = await service.adopt(result) }
            return .next(.adopted)
        case .syncUsernameEmail:
            if let session { await service.usernames?.syncEmail(of: session, in: service) }
            return .next(.synced)
        case .forgetEmailLinkAddress(let email):
            await service.forgetEmailLinkAddress(email)
            return .next(.forgotten)
        case .done:
            return .finished(.success(service.makeState()))
        case .fail(let error):
            return .finished(.failure(error))
        }
    }

    /// The link call, with a fresh token of the current account.
    private func link(in service: isolated SessionService) async throws(AuthError) -> SignInResult {
        let provider = service.provider
        switch credential {
        case .password(let email, let password):
            return try await service.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signUp(email: email, password: password, linkingTo: token)
            }
        case .emailLink(let email, let link):
            let proof = EmailSignInProof.link(link)
            return try await service.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signIn(email: email, proof: proof, linkingTo: token)
            }
        case .federated(let providerId, let idToken, let accessToken):
            let federated = FederatedCredential(providerId: providerId, idToken: idToken, accessToken: accessToken)
            return try await service.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signIn(federated: federated, linkingTo: token)
            }
        }
    }
}
