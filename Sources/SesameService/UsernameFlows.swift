import Foundation
import Logging
import SesameCore

/// The username flows: setting and checking a name, and the username steps other flows call.
/// It owns the ``UsernameDirectory`` and the rules; ``SessionService`` holds one only when
/// usernames are on. Its methods run on the owner's executor (`in host:`, a ``SessionHost``), so they read the
/// session and apply changes as the service's own flows do, re-checking after each `await`.
///
/// Crash safety: every change that claims a key first records durable steps in the keyring
/// (`pendingUsernameSteps`): `.writeDetails` for a key being claimed (its details record must
/// point at it, or, when the claim never happened, the step is dropped) and `.release` for a
/// key to give up. The maintenance loop finishes them on start and retries them. A `.release`
/// step never releases the key the uid's details record points at, so a rename whose claim
/// never landed cannot release the old (still current) name.
struct UsernameFlows: Sendable {
    let directory: any UsernameDirectory
    /// Names nobody may take (`usernames.reserved`).
    let rules: UsernameRules
    /// Authenticated users without a username need one (`usernames.required`).
    let required: Bool

    init(directory: any UsernameDirectory, configuration: SessionServiceConfiguration) {
        self.directory = directory
        self.rules = UsernameRules(reserved: configuration.reservedUsernames)
        self.required = configuration.usernamesRequired
    }

    /// A validated name to claim for a new account.
    struct Claim: Sendable {
        var username: String
        var key: String
    }

    /// The valid username, or the rejection as an error.
    func validated(_ candidate: String) throws(AuthError) -> Username {
        switch rules.validate(candidate) {
        case .valid(let username): return username
        case .rejected(let rejection): throw rejection.authError
        }
    }

    /// Calls the directory with an ID token of `session`: the fresh-token path when it is the
    /// current session, else its own token (a sign-up not adopted yet).
    func withToken<T: Sendable>(
        of session: Session, in host: isolated some SessionHost,
        _ body: @Sendable (IDToken) async throws(RemoteAuthError) -> T
    ) async throws(AuthError) -> T {
        if host.session?.uid == session.uid { return try await host.withFreshToken(body) }
        let token = session.idToken
        return try await host.callMapped { () async throws(RemoteAuthError) in try await body(token) }
    }

    // MARK: - The durable steps

    func addSteps(_ steps: [UsernameStep], in host: isolated some SessionHost) async {
        var all = host.persisted.pendingUsernameSteps
        for step in steps where !all.contains(step) { all.append(step) }
        await host.apply(.usernameStepsChanged(all))
    }

    func removeSteps(_ steps: [UsernameStep], in host: isolated some SessionHost) async {
        await host.apply(
            .usernameStepsChanged(host.persisted.pendingUsernameSteps.filter { !steps.contains($0) }))
    }

    /// Adds and removes steps in one keyring write.
    func changeSteps(adding: [UsernameStep], removing: [UsernameStep], in host: isolated some SessionHost) async {
        var all = host.persisted.pendingUsernameSteps.filter { !removing.contains($0) }
        for step in adding where !all.contains(step) { all.append(step) }
        await host.apply(.usernameStepsChanged(all))
    }

    /// Plans the maintenance loop's next try at the steps.
    func scheduleRetry(in host: isolated some SessionHost) {
        host.plan(.usernameStepsFailed(at: host.now(), random: .random(in: 0...1)))
    }
}
