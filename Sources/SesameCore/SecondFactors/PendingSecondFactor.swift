import Foundation

/// A first factor the backend accepted for an account that has a second factor: what the
/// adapter needs to finish the sign-in (``RemoteAuthProvider/completeSecondFactor(_:factorId:code:)``).
///
/// The credential is a secret (Firebase's `mfaPendingCredential`; on Supabase the `aal1`
/// session, which must never be exposed): it lives in the daemon's memory only, never in a
/// log line, an error, a state or the keyring.
public struct PendingSecondFactor: Sendable, Hashable, CustomStringConvertible {
    /// The account the first factor answered for, when the backend says.
    public var uid: String?
    /// The account's address, when the backend says.
    public var email: String?
    /// The enrolled factors that can finish the sign-in.
    public var factors: [SecondFactor]
    /// The adapter's own handle on the half-done sign-in (opaque to the domain).
    public var credential: String
    /// A second, adapter-owned secret when one handle is not enough (Supabase keeps the `aal1`
    /// refresh token here); nil otherwise.
    public var secondaryCredential: String?
    /// When the backend stops accepting the pending credential, if it says; the daemon closes
    /// the challenge at the earlier of this and its own limit.
    public var expiresAt: Date?

    public init(
        uid: String?, email: String?, factors: [SecondFactor], credential: String,
        secondaryCredential: String? = nil, expiresAt: Date? = nil
    ) {
        self.uid = uid
        self.email = email
        self.factors = factors
        self.credential = credential
        self.secondaryCredential = secondaryCredential
        self.expiresAt = expiresAt
    }

    public var description: String {
        "PendingSecondFactor(uid: \(uid ?? "?"), factors: \(factors.map(\.factorId)), redacted)"
    }
}
