import Foundation
import Logging
import SesameCore

/// How `completeSignInLink` performs each action of its ``SignInLinkCompletion`` machine, with
/// what the spent proof answered.
struct SignInLinkFlow {
    typealias Step = StepResult<SignInLinkCompletion.Event, Result<SessionService.SignInOutcome, AuthError>>

    let proof: EmailSignInProof
    /// The address the proof was sent to.
    let address: String
    private var result: SignInResult?
    private var merge: Merge?

    init(proof: EmailSignInProof, address: String) {
        self.proof = proof
        self.address = address
    }

    mutating func perform(
        _ action: SignInLinkCompletion.Action, in service: isolated SessionService
    ) async throws(AuthError) -> Step {
        let (provider, proof, address) = (service.provider, self.proof, self.address)
        switch action {
        case .checkEmail(let address):
            return .next(.signInMethods(try await service.signInMethods(forEmail: address)))
        case .linkToGuest:
            let spent = try await service.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signIn(email: address, proof: proof, linkingTo: token)
            }
            result = spent
            return .next(.signedIn(uid: spent.uid))
        case .signIn:
            let spent = try await service.callMapped { () async throws(RemoteAuthError) in
                try await provider.signIn(email: address, proof: proof, linkingTo: nil)
            }
            result = spent
            return .next(.signedIn(uid: spent.uid))
        case .adoptLinked:
            guard let result else { throw AuthError(.noCurrentUser) }
            await service.applyLinked(await service.makeSession(from: result))
            return .next(.adopted)
        case .adoptSignIn:
            guard let result else { throw AuthError(.noCurrentUser) }
            merge = await service.adopt(result)
            return .next(.adopted)
        case .forgetEmailLinkAddress(let address):
            await service.forgetEmailLinkAddress(address)
            return .next(.forgotten)
        case .done:
            return .finished(.success(SessionService.SignInOutcome(state: service.makeState(), merge: merge)))
        case .fail(let error):
            return .finished(.failure(error))
        }
    }
}
