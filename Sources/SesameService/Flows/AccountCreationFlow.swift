import Foundation
import Logging
import SesameCore

/// How `createAccount` performs each action of its ``AccountCreation`` machine, with what the
/// steps learn on the way (the sign-up's tokens, the new session).
struct AccountCreationFlow {
    typealias Step = StepResult<AccountCreation.Event, Result<AuthState, AuthError>>

    let email: String
    let password: String
    let origin: AccountCreation.Origin
    /// The anonymous user who asks (nil when signed out).
    let guest: Session?
    let claim: UsernameFlows.Claim?
    private var result: SignInResult?
    private var session: Session?

    init(email: String, password: String, origin: AccountCreation.Origin, guest: Session?, claim: UsernameFlows.Claim?)
    {
        self.email = email
        self.password = password
        self.origin = origin
        self.guest = guest
        self.claim = claim
    }

    mutating func perform(
        _ action: AccountCreation.Action, in host: isolated some SessionHost
    ) async throws(AuthError) -> Step {
        let (provider, email, password) = (host.provider, self.email, self.password)
        switch action {
        case .claimForGuest, .claimForNewAccount:
            guard let claim, let usernames = host.features.usernames,
                let owner = action == .claimForGuest ? guest : session
            else { return .finished(.failure(AuthError(.noCurrentUser))) }
            do throws(AuthError) {
                try await usernames.claim(claim, for: owner, in: host)
                return .next(.claimed)
            } catch {
                return .next(.claimFailed(error))
            }
        case .linkToGuest, .signUp:
            do throws(AuthError) {
                let created: SignInResult
                if action == .linkToGuest {
                    created = try await host.withFreshToken { token async throws(RemoteAuthError) in
                        try await provider.signUp(email: email, password: password, linkingTo: token)
                    }
                } else {
                    created = try await host.callMapped { () async throws(RemoteAuthError) in
                        try await provider.signUp(email: email, password: password, linkingTo: nil)
                    }
                }
                result = created
                session = await host.makeSession(from: created)
                return .next(.created)
            } catch {
                return .next(.creationFailed(error.addingConflictDetails(email: email, providerId: "password")))
            }
        case .adopt:
            guard var adopted = session else { return .finished(.failure(AuthError(.noCurrentUser))) }
            if let claim { adopted.user.username = claim.username }
            session = adopted
            if origin == .guest, adopted.uid == guest?.uid {
                await host.applyLinked(adopted)
            } else {
                host.logger.info("Signed up", metadata: ["session.uid": "\(adopted.uid)"])
                await host.apply(.signedIn(adopted, reason: .signedUp))
            }
            return .next(.adopted)
        case .writeDetails:
            if let claim, let session { await host.features.usernames?.finishClaim(claim, for: session, in: host) }
            return .next(.detailsHandled)
        case .releaseGuestClaim:
            if let claim, let guest { await host.features.usernames?.releaseClaim(claim, of: guest, in: host) }
            return .next(.undone)
        case .deleteNewAccount:
            if let result {
                _ = try? await host.callMapped { () async throws(RemoteAuthError) in
                    try await provider.deleteAccount(result.idToken)
                }
            }
            return .next(.undone)
        case .done:
            return .finished(.success(host.state))
        case .fail(let error):
            return .finished(.failure(error))
        }
    }
}
