import SesameCore

/// What the conformance suite needs besides the provider: the side doors of the emulator the
/// provider talks to (mail, identity-provider tokens, fault injection).
public protocol ProviderConformanceBackend: Sendable {
    /// The provider under test.
    var provider: any RemoteAuthProvider { get }
    /// The proof from the newest passwordless sign-in email sent to `email`: what the person
    /// would paste (the link, or the one-time code where the backend sends codes).
    func emailSignInProof(for email: String) async throws -> EmailSignInProof
    /// A federated credential for a new identity `subject` with a verified `email`, which the
    /// backend accepts; nil when the backend cannot be given one (the federated checks then
    /// fail with that reason: they are never skipped).
    func federatedCredential(subject: String, email: String) -> FederatedCredential?
    /// Makes the next `count` backend calls answer `status` (503, or 200 with a body that is
    /// not the expected answer).
    func failNext(_ count: Int, status: Int) async throws
    /// Switches fault injection off again.
    func clearFaults() async throws
}

/// A conformance check that did not hold; `description` says which and why.
public struct ProviderConformanceFailure: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
