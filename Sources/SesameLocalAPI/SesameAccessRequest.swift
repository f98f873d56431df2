import Foundation

/// A program's open request for a role (`State.accessRequests`, shown to managers only): the
/// wire object, and SesameClient's public value. Every field but `reason` was read by the
/// daemon about the requesting process, never taken from its words; `reason` is the program's
/// own text, to be shown as such.
public struct SesameAccessRequest: Sendable, Hashable {
    public var requestId: String
    /// The role asked for: `observer`, `reader` or `manager`.
    public var role: String
    public var reason: String?
    public var uid: UInt32
    /// The uid's user name, where the user database has one.
    public var user: String?
    public var pid: Int32
    /// The path of the program's executable; nil when the daemon could not read it.
    public var executable: String?
    /// The systemd unit holding the program (the user unit under a user manager).
    public var unit: String?
    public var flatpakAppId: String?
    /// When the request is refused unless answered.
    public var expiresAt: Date

    public init(
        requestId: String, role: String, reason: String?, uid: UInt32, user: String?, pid: Int32, executable: String?,
        unit: String?, flatpakAppId: String?, expiresAt: Date
    ) {
        self.requestId = requestId
        self.role = role
        self.reason = reason
        self.uid = uid
        self.user = user
        self.pid = pid
        self.executable = executable
        self.unit = unit
        self.flatpakAppId = flatpakAppId
        self.expiresAt = expiresAt
    }

    public var json: JSONValue {
        .object([
            "requestId": .string(requestId), "role": .string(role), "reason": .optional(reason),
            "uid": .integer(Int64(uid)), "user": .optional(user), "pid": .integer(Int64(pid)),
            "executable": .optional(executable), "unit": .optional(unit), "flatpakAppId": .optional(flatpakAppId),
            "expiresAt": .string(WireTime.string(expiresAt)),
        ])
    }

    /// Reads a protocol access request; nil without `requestId`, `role`, `uid` or `pid`.
    public init?(json: JSONValue) {
        guard let requestId = json["requestId"]?.stringValue, let role = json["role"]?.stringValue,
            let uid = json["uid"]?.int64Value, let pid = json["pid"]?.int64Value
        else { return nil }
        self.init(
            requestId: requestId, role: role, reason: json["reason"]?.stringValue, uid: UInt32(clamping: uid),
            user: json["user"]?.stringValue, pid: Int32(clamping: pid), executable: json["executable"]?.stringValue,
            unit: json["unit"]?.stringValue, flatpakAppId: json["flatpakAppId"]?.stringValue,
            expiresAt: json["expiresAt"]?.stringValue.flatMap(WireTime.parse) ?? Date(timeIntervalSince1970: 0))
    }
}
