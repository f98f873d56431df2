import Foundation
import SesameLocalAPI

/// A pending move of an anonymous user's data into an existing account (PROTOCOL.md, Merges).
///
/// A migrator moves the data of `fromUid` (it may read it with
/// ``SesameClient/idToken(forceRefresh:minValidity:uid:)`` and `uid: fromUid`), then calls
/// ``SesameClient/completeMerge(mergeId:)``.
public struct SesameMerge: Sendable, Hashable, Identifiable {
    public var mergeId: String
    /// The anonymous uid whose data moves.
    public var fromUid: String
    /// The account's uid that receives it.
    public var toUid: String
    public var createdAt: Date

    public var id: String { mergeId }

    public init(mergeId: String, fromUid: String, toUid: String, createdAt: Date) {
        self.mergeId = mergeId
        self.fromUid = fromUid
        self.toUid = toUid
        self.createdAt = createdAt
    }
}

extension SesameMerge {
    /// The protocol `Merge` object as one line of compact JSON.
    public var json: String {
        WireMerge(mergeId: mergeId, fromUid: fromUid, toUid: toUid, createdAt: createdAt).json.jsonString
    }
}
