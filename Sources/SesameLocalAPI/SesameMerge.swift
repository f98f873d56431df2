import Foundation

/// A pending move of an anonymous user's data into an existing account (PROTOCOL.md, `Merge`
/// and Merges): the wire object, and SesameClient's public value.
///
/// A migrator moves the data of `fromUid` (it may read it with SesameClient's
/// `idToken(forceRefresh:minValidity:uid:)` and `uid: fromUid`), then calls
/// `completeMerge(mergeId:)`.
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

    /// The protocol `Merge` object (`json.jsonString` for one line of compact JSON).
    public var json: JSONValue {
        .object([
            "mergeId": .string(mergeId), "fromUid": .string(fromUid), "toUid": .string(toUid),
            "createdAt": .string(WireTime.string(createdAt)),
        ])
    }

    /// Reads a protocol `Merge` object; nil without `mergeId`, `fromUid` or `toUid`.
    public init?(json: JSONValue) {
        guard let mergeId = json["mergeId"]?.stringValue, let fromUid = json["fromUid"]?.stringValue,
            let toUid = json["toUid"]?.stringValue
        else { return nil }
        self.mergeId = mergeId
        self.fromUid = fromUid
        self.toUid = toUid
        self.createdAt = json["createdAt"]?.stringValue.flatMap(WireTime.parse) ?? Date(timeIntervalSince1970: 0)
    }
}

/// The server side's name for ``SesameMerge``.
public typealias WireMerge = SesameMerge
