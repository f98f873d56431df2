/// A multi-step job as a pure machine: its caller performs each ``Action`` and feeds what
/// happened back as an ``Event``, until an action ends the job. The machine performs no I/O
/// and reads no clock; each has its own `start(…)`, taking what it needs to pick the first
/// action.
///
/// The service drives every machine with one loop (`drive(from:_:)` in SesameService): a flow
/// only says how to perform each action, and a failed action becomes ``failed(_:)``'s event.
/// The crash-point tables in SesameCoreTests check each machine on its own.
public protocol StepMachine: Sendable {
    associatedtype Action: Sendable, Hashable
    associatedtype Event: Sendable, Hashable
    /// The error performing an action may fail with.
    associatedtype Failure: Error

    /// The next action, given what the last one led to.
    mutating func handle(_ event: Event) -> Action

    /// The event that tells the machine its last action failed with `error`.
    static func failed(_ error: Failure) -> Event
}

extension AccountCreation: StepMachine {
    /// A step that failed outside the claim: the account was not created (the claim's own
    /// failure is ``Event/claimFailed(_:)``, which the flow reports itself).
    public static func failed(_ error: AuthError) -> Event { .creationFailed(error) }
}

extension CleanupJob: StepMachine {
    public static func failed(_ error: RemoteAuthError) -> Event { .failed(error) }
}

extension CredentialLink: StepMachine {
    public static func failed(_ error: AuthError) -> Event { .failed(error) }
}

extension SignInLinkCompletion: StepMachine {
    public static func failed(_ error: AuthError) -> Event { .failed(error) }
}

extension UsernameChange: StepMachine {
    public static func failed(_ error: AuthError) -> Event { .failed(error) }
}

extension UsernameStepJob: StepMachine {
    /// A backend outage keeps the step for later; any other refusal drops it.
    public static func failed(_ error: AuthError) -> Event { error.category == .backend ? .unreachable : .refused }
}
