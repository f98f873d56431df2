import Foundation

/// A pending hand-over of an anonymous user's data to an existing account.
public struct Merge: Sendable, Hashable, Codable {
    public var mergeId: String
    /// The anonymous (guest) account whose data moves.
    public var fromUid: String
    /// The account the person signed in to.
    public var toUid: String
    public var createdAt: Date

    public init(mergeId: String, fromUid: String, toUid: String, createdAt: Date) {
        self.mergeId = mergeId
        self.fromUid = fromUid
        self.toUid = toUid
        self.createdAt = createdAt
    }
}

/// A merge as the keyring keeps it: with the guest's tokens, so a migrator can still read the
/// guest's data and the daemon can delete the guest account once the merge completes.
public struct PendingMerge: Sendable, Hashable, Codable {
    public var merge: Merge
    public var guest: Session

    public init(merge: Merge, guest: Session) {
        self.merge = merge
        self.guest = guest
    }
}
