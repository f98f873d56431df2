import Foundation
import Logging
import SesameCore

/// How `completeSecondFactor` performs each action of its ``SecondFactorSignIn`` machine, with
/// what the backend answered. Holds the pending credential and the code for this call only.
struct SecondFactorSignInFlow {
    typealias Step = StepResult<SecondFactorSignIn.Event, Result<SessionService.SignInOutcome, AuthError>>

    let challengeId: String
    let pending: PendingSecondFactor
    let factorId: String
    let code: String
    /// The new password, when the challenge finishes a password reset.
    let newPassword: String?
    private var result: SignInResult?
    private var merge: Merge?

    init(challengeId: String, pending: PendingSecondFactor, factorId: String, code: String, newPassword: String?) {
        self.newPassword = newPassword
        self.challengeId = challengeId
        self.pending = pending
        self.factorId = factorId
        self.code = code
    }

    mutating func perform(
        _ action: SecondFactorSignIn.Action, in host: isolated some SessionHost
    ) async throws(AuthError) -> Step {
        let (provider, pending, factorId, code) = (host.provider, self.pending, self.factorId, self.code)
        switch action {
        case .verify:
            let signedIn = try await host.callMapped { () async throws(RemoteAuthError) in
                try await provider.completeSecondFactor(pending, factorId: factorId, code: code)
            }
            result = signedIn
            return .next(.verified(uid: signedIn.uid))
        case .closeChallenge:
            host.closeChallenge(challengeId)
            return .next(.closed)
        case .adoptLinked:
            guard let result else { throw AuthError(.noCurrentUser) }
            await host.applyLinked(await host.makeSession(from: result))
            return .next(.adopted)
        case .adoptSignIn:
            guard let result else { throw AuthError(.noCurrentUser) }
            merge = await host.adopt(result)
            return .next(.adopted)
        case .adoptReauthentication:
            guard let result, host.session?.uid == result.uid else {
                throw AuthError(.noCurrentUser, message: "The account signed out meanwhile: nothing changed.")
            }
            _ = await host.adopt(result)
            return .next(.adopted)
        case .setNewPassword:
            guard let result, let newPassword else { throw AuthError(.noCurrentUser) }
            let token = result.idToken
            // The verified session exists only to set the password: it never outlives the call.
            do {
                _ = try await host.callMapped { () async throws(RemoteAuthError) in
                    try await provider.changePassword(token, newPassword: newPassword, reauthenticationCode: nil)
                }
            } catch {
                try? await provider.revokeSession(token)
                throw error
            }
            try? await provider.revokeSession(token)
            host.logger.info("A password reset was completed with a second factor")
            return .next(.adopted)
        case .forgetEmailLinkAddress(let address):
            await host.forgetEmailLinkAddress(address)
            return .next(.forgotten)
        case .done:
            host.logger.info(
                "A second factor completed the sign-in", metadata: ["challenge.id": "\(challengeId)"])
            return .finished(.success(SessionService.SignInOutcome(state: host.state, merge: merge)))
        case .fail(let error):
            // Wrong codes are counted and summarised by the service (SecondFactorGuesses).
            guard error.reason != .invalidVerificationCode else { return .finished(.failure(error)) }
            host.logger.info(
                "A second factor did not complete the sign-in",
                metadata: ["challenge.id": "\(challengeId)", "reason": "\(error.reason.rawValue)"])
            return .finished(.failure(error))
        }
    }
}
