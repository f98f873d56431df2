import Foundation
import Logging
import SesameCore

/// How `changeEmail` and its confirmation perform each action of their ``EmailChange`` machine.
struct EmailChangeFlow {
    typealias Step = StepResult<EmailChange.Event, Result<String, AuthError>>

    let uid: String

    mutating func perform(
        _ action: EmailChange.Action, in host: isolated some SessionHost
    ) async throws(AuthError)
        -> Step
    {
        let (provider, uid) = (host.provider, self.uid)
        switch action {
        case .request(let address):
            try await host.withFreshToken { token async throws(RemoteAuthError) in
                try await provider.requestEmailChange(token, newEmail: address)
            }
            host.logger.info("Asked the backend to confirm a new address", metadata: ["session.uid": "\(uid)"])
            return .next(.requested)
        case .remember(let address):
            await host.apply(.pendingEmailChanged(uid: uid, email: address))
            return .next(.remembered)
        case .show(let address):
            if var current = host.session, current.uid == uid {
                current.user.pendingEmail = address
                await host.apply(.updated(current))
            }
            return .next(.shown)
        case .syncUsernameRecord:
            if let session = host.session, session.uid == uid {
                await host.features.usernames?.syncEmail(of: session, in: host)
            }
            return .next(.synced)
        case .forget:
            await host.apply(.pendingEmailChanged(uid: uid, email: nil))
            return .next(.forgotten)
        case .done:
            return .finished(.success(host.persisted.pendingEmails[uid] ?? ""))
        case .fail(let error):
            return .finished(.failure(error))
        }
    }
}
