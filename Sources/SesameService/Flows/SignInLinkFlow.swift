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
        _ action: SignInLinkCompletion.Action, in host: isolated some SessionHost
    ) async throws(AuthError) -> Step {
        let (provider, proof, address) = (host.provider, self.proof, self.address)
        switch action {
        case .checkEmail(let address):
            return .next(.signInMethods(try await host.signInMethods(forEmail: address)))
        case .linkToGuest:
            let spent = try await host.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signIn(email: address, proof: proof, linkingTo: token)
            }
            result = spent
            return .next(.signedIn(uid: spent.uid))
        case .signIn:
            let spent = try await host.callMapped { () async throws(RemoteAuthError) in
                try await provider.signIn(email: address, proof: proof, linkingTo: nil)
            }
            result = spent
            return .next(.signedIn(uid: spent.uid))
        case .adoptLinked:
            guard let result else { throw AuthError(.noCurrentUser) }
            await host.applyLinked(await host.makeSession(from: result))
            return .next(.adopted)
        case .adoptSignIn:
            guard let result else { throw AuthError(.noCurrentUser) }
            merge = await host.adopt(result)
            return .next(.adopted)
        case .forgetEmailLinkAddress(let address):
            await host.forgetEmailLinkAddress(address)
            return .next(.forgotten)
        case .done:
            return .finished(.success(SessionService.SignInOutcome(state: host.state, merge: merge)))
        case .fail(let error):
            return .finished(.failure(error))
        }
    }
}
