import Foundation

/// A role a manager granted to a program (`listAccessGrants`): for one connection, until the
/// daemon stops (`boot`), or kept (`always`) for the same uid and executable file.
public struct SesameAccessGrant: Sendable, Hashable {
    public var grantId: String
    public var role: String
    /// `connection`, `boot` or `always`.
    public var remember: String
    public var uid: UInt32
    public var user: String?
    public var executable: String?
    /// The connection's process, for a grant to one connection; nil for a remembered one.
    public var pid: Int32?
    public var grantedAt: Date

    public init(
        grantId: String, role: String, remember: String, uid: UInt32, user: String?, executable: String?, pid: Int32?,
        grantedAt: Date
    ) {
        self.grantId = grantId
        self.role = role
        self.remember = remember
        self.uid = uid
        self.user = user
        self.executable = executable
        self.pid = pid
        self.grantedAt = grantedAt
    }

    public var json: JSONValue {
        .object([
            "grantId": .string(grantId), "role": .string(role), "remember": .string(remember),
            "uid": .integer(Int64(uid)), "user": .optional(user), "executable": .optional(executable),
            "pid": pid.map { .integer(Int64($0)) } ?? .null, "grantedAt": .string(WireTime.string(grantedAt)),
        ])
    }

    /// Reads a protocol grant; nil without `grantId`, `role`, `remember` or `uid`.
    public init?(json: JSONValue) {
        guard let grantId = json["grantId"]?.stringValue, let role = json["role"]?.stringValue,
            let remember = json["remember"]?.stringValue, let uid = json["uid"]?.int64Value
        else { return nil }
        self.init(
            grantId: grantId, role: role, remember: remember, uid: UInt32(clamping: uid),
            user: json["user"]?.stringValue, executable: json["executable"]?.stringValue,
            pid: json["pid"]?.int64Value.map { Int32(clamping: $0) },
            grantedAt: json["grantedAt"]?.stringValue.flatMap(WireTime.parse) ?? Date(timeIntervalSince1970: 0))
    }
}
