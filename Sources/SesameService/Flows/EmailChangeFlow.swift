import Foundation
import Logging
import SesameCore

/// How `changeEmail` and its confirmation perform each action of their ``EmailChange`` machine.
struct EmailChangeFlow {
    typealias Step = StepResult<EmailChange.Event, Result<String, AuthError>>

    let uid: String

    mutating func perform(
        _ action: EmailChange.Action, in service: isolated SessionService
    ) async throws(AuthError)
        -> Step
    {
        let (provider, uid) = (service.provider, self.uid)
        switch action {
        case .request(let address):
            try await service.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.requestEmailChange(token, newEmail: address)
            }
            service.logger.info("Asked the backend to confirm a new address", metadata: ["session.uid": "\(uid)"])
            return .next(.requested)
        case .remember(let address):
            await service.apply(.pendingEmailChanged(uid: uid, email: address))
            return .next(.remembered)
        case .show(let address):
            if var current = service.machine.session, current.uid == uid {
                current.user.pendingEmail = address
                await service.apply(.updated(current))
            }
            return .next(.shown)
        case .syncUsernameRecord:
            if let session = service.machine.session, session.uid == uid {
                await service.usernames?.syncEmail(of: session, in: service)
            }
            return .next(.synced)
        case .forget:
            await service.apply(.pendingEmailChanged(uid: uid, email: nil))
            return .next(.forgotten)
        case .done:
            return .finished(.success(service.machine.persisted.pendingEmails[uid] ?? ""))
        case .fail(let error):
            return .finished(.failure(error))
        }
    }
}
