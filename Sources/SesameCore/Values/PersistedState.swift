import Foundation

/// Everything the daemon must not lose across restarts and crashes: what the keyring holds.
///
/// It is written (durably) before any client hears of a change. Every field is optional or
/// defaults to empty, so older keyrings decode into newer versions of this type.
public struct PersistedState: Sendable, Hashable, Codable {
    /// The current session; nil when signed out.
    public var session: Session?
    /// Anonymous accounts the daemon gave up and must delete at the backend (a durable to-do
    /// list, retried across restarts until the backend confirms).
    public var pendingDeletions: [Session]
    /// Sessions the person left (signed out of, or switched away from) that must still be
    /// ended at the backend (server-side sign-out), retried like deletions.
    public var pendingRevocations: [Session]
    /// Merges not yet completed, oldest first.
    public var pendingMerges: [PendingMerge]
    /// The address of the last `sendSignInLink`, forgotten once a link for it completes.
    public var emailLinkAddress: String?
    /// Username directory steps to finish after a crash (claimed keys whose details or release
    /// are not written yet).
    public var pendingUsernameSteps: [UsernameStep]
    /// Address changes asked for (`changeEmail`) and not yet confirmed, by uid: the backend
    /// may not report them (Firebase), so they are remembered until a lookup shows the address
    /// as the account's email.
    public var pendingEmails: [String: String]

    public init(
        session: Session? = nil, pendingDeletions: [Session] = [], pendingMerges: [PendingMerge] = [],
        emailLinkAddress: String? = nil, pendingUsernameSteps: [UsernameStep] = [],
        pendingRevocations: [Session] = [], pendingEmails: [String: String] = [:]
    ) {
        self.pendingEmails = pendingEmails
        self.session = session
        self.pendingDeletions = pendingDeletions
        self.pendingRevocations = pendingRevocations
        self.pendingMerges = pendingMerges
        self.emailLinkAddress = emailLinkAddress
        self.pendingUsernameSteps = pendingUsernameSteps
    }

    enum CodingKeys: String, CodingKey {
        case session, pendingDeletions, pendingMerges, emailLinkAddress, pendingUsernameSteps, pendingRevocations
        case pendingEmails
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        session = try c.decodeIfPresent(Session.self, forKey: .session)
        pendingDeletions = try c.decodeIfPresent([Session].self, forKey: .pendingDeletions) ?? []
        pendingRevocations = try c.decodeIfPresent([Session].self, forKey: .pendingRevocations) ?? []
        pendingMerges = try c.decodeIfPresent([PendingMerge].self, forKey: .pendingMerges) ?? []
        emailLinkAddress = try c.decodeIfPresent(String.self, forKey: .emailLinkAddress)
        pendingUsernameSteps = try c.decodeIfPresent([UsernameStep].self, forKey: .pendingUsernameSteps) ?? []
        pendingEmails = try c.decodeIfPresent([String: String].self, forKey: .pendingEmails) ?? [:]
    }

    /// Whether the backend still has cleanup to do: accounts to delete or sessions to end.
    public var hasPendingCleanup: Bool { !pendingDeletions.isEmpty || !pendingRevocations.isEmpty }
}

/// A durable step of a username change that must be finished after a crash.
public struct UsernameStep: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// `key` was claimed for `uid`; the details record must point at `username`.
        case writeDetails
        /// `key` (an old name of `uid`) must be released.
        case release
    }
    public var kind: Kind
    public var uid: String
    public var key: String
    public var username: String

    public init(kind: Kind, uid: String, key: String, username: String) {
        self.kind = kind
        self.uid = uid
        self.key = key
        self.username = username
    }
}
