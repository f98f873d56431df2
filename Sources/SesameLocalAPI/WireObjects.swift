import Foundation
import enum SesameCore.RFC3339

/// RFC 3339 UTC time strings, as every time on the wire.
public enum WireTime {
    public static func string(_ date: Date) -> String {
        RFC3339.format(date)
    }

    public static func json(_ date: Date?) -> JSONValue {
        date.map { .string(string($0)) } ?? .null
    }

    public static func parse(_ string: String) -> Date? {
        RFC3339.parse(string)
    }
}

/// `User` on the wire.
public struct WireUser: Sendable, Hashable {
    public var uid: String
    public var isAnonymous: Bool
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var username: String?
    public var providers: [String]
    public var createdAt: Date?
    public var lastSignInAt: Date?

    public init(
        uid: String, isAnonymous: Bool, email: String?, emailVerified: Bool, displayName: String?,
        username: String?, providers: [String], createdAt: Date?, lastSignInAt: Date?
    ) {
        self.uid = uid
        self.isAnonymous = isAnonymous
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.username = username
        self.providers = providers
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
    }

    public var json: JSONValue {
        .object([
            "uid": .string(uid), "isAnonymous": .bool(isAnonymous), "email": .optional(email),
            "emailVerified": .bool(emailVerified), "displayName": .optional(displayName),
            "username": .optional(username), "providers": .array(providers.map { .string($0) }),
            "createdAt": WireTime.json(createdAt), "lastSignInAt": WireTime.json(lastSignInAt),
        ])
    }

    public init?(json: JSONValue) {
        guard let uid = json["uid"]?.stringValue else { return nil }
        self.uid = uid
        self.isAnonymous = json["isAnonymous"]?.boolValue ?? false
        self.email = json["email"]?.stringValue
        self.emailVerified = json["emailVerified"]?.boolValue ?? false
        self.displayName = json["displayName"]?.stringValue
        self.username = json["username"]?.stringValue
        self.providers = json["providers"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.createdAt = json["createdAt"]?.stringValue.flatMap(WireTime.parse)
        self.lastSignInAt = json["lastSignInAt"]?.stringValue.flatMap(WireTime.parse)
    }
}

/// `Merge` on the wire.
public struct WireMerge: Sendable, Hashable {
    public var mergeId: String
    public var fromUid: String
    public var toUid: String
    public var createdAt: Date

    public init(mergeId: String, fromUid: String, toUid: String, createdAt: Date) {
        self.mergeId = mergeId
        self.fromUid = fromUid
        self.toUid = toUid
        self.createdAt = createdAt
    }

    public var json: JSONValue {
        .object([
            "mergeId": .string(mergeId), "fromUid": .string(fromUid), "toUid": .string(toUid),
            "createdAt": .string(WireTime.string(createdAt)),
        ])
    }

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

/// `State` on the wire. Never contains a token.
public struct WireState: Sendable, Hashable {
    /// `starting`, `signedOut`, `anonymous` or `authenticated`.
    public var status: String
    public var user: WireUser?
    /// Expiry of the held ID token; nil when none is held.
    public var tokenExpiresAt: Date?
    /// `online` or `offline`.
    public var connectivity: String
    public var needsUsername: Bool
    public var pendingMerges: [WireMerge]
    public var sequence: Int64

    public init(
        status: String, user: WireUser?, tokenExpiresAt: Date?, connectivity: String, needsUsername: Bool,
        pendingMerges: [WireMerge], sequence: Int64
    ) {
        self.status = status
        self.user = user
        self.tokenExpiresAt = tokenExpiresAt
        self.connectivity = connectivity
        self.needsUsername = needsUsername
        self.pendingMerges = pendingMerges
        self.sequence = sequence
    }

    public var json: JSONValue {
        .object([
            "status": .string(status), "user": user?.json ?? .null,
            "token": tokenExpiresAt.map { .object(["expiresAt": .string(WireTime.string($0))]) } ?? .null,
            "connectivity": .string(connectivity), "needsUsername": .bool(needsUsername),
            "pendingMerges": .array(pendingMerges.map(\.json)), "sequence": .integer(sequence),
        ])
    }

    public init?(json: JSONValue) {
        guard let status = json["status"]?.stringValue, let sequence = json["sequence"]?.int64Value else { return nil }
        self.status = status
        self.user = json["user"].flatMap { $0.isNull ? nil : WireUser(json: $0) }
        self.tokenExpiresAt = json["token"]?["expiresAt"]?.stringValue.flatMap(WireTime.parse)
        self.connectivity = json["connectivity"]?.stringValue ?? "online"
        self.needsUsername = json["needsUsername"]?.boolValue ?? false
        self.pendingMerges = json["pendingMerges"]?.arrayValue?.compactMap { WireMerge(json: $0) } ?? []
        self.sequence = sequence
    }
}

/// The result of `getIdToken`.
public struct WireIdToken: Sendable, Hashable, CustomStringConvertible {
    /// The ID token itself. A secret: print it only where asked to.
    public var token: String
    public var uid: String
    public var expiresAt: Date
    public var issuedAt: Date
    public var signInProvider: String

    public init(token: String, uid: String, expiresAt: Date, issuedAt: Date, signInProvider: String) {
        self.token = token
        self.uid = uid
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.signInProvider = signInProvider
    }

    public var json: JSONValue {
        .object([
            "token": .string(token), "uid": .string(uid), "expiresAt": .string(WireTime.string(expiresAt)),
            "issuedAt": .string(WireTime.string(issuedAt)), "signInProvider": .string(signInProvider),
        ])
    }

    public init?(json: JSONValue) {
        guard let token = json["token"]?.stringValue, let uid = json["uid"]?.stringValue,
            let expiresAt = json["expiresAt"]?.stringValue.flatMap(WireTime.parse)
        else { return nil }
        self.token = token
        self.uid = uid
        self.expiresAt = expiresAt
        self.issuedAt = json["issuedAt"]?.stringValue.flatMap(WireTime.parse) ?? expiresAt
        self.signInProvider = json["signInProvider"]?.stringValue ?? ""
    }

    public var description: String { "WireIdToken(uid: \(uid), expiresAt: \(expiresAt), redacted)" }
}

/// The result of `hello`.
public struct WireHello: Sendable, Hashable {
    public var server: String
    public var version: String
    public var `protocol`: Int
    public var instance: String
    public var role: LocalAPIRole
    public var peerUid: UInt32
    public var peerGid: UInt32
    public var peerPid: Int32
    /// Which backend the daemon talks to (`firebase`, `supabase`); nil from older daemons.
    public var backend: String?

    public init(
        server: String = "sesamed", version: String, protocol: Int = ProtocolLimits.version, instance: String,
        role: LocalAPIRole, peerUid: UInt32, peerGid: UInt32, peerPid: Int32, backend: String? = nil
    ) {
        self.backend = backend
        self.server = server
        self.version = version
        self.protocol = `protocol`
        self.instance = instance
        self.role = role
        self.peerUid = peerUid
        self.peerGid = peerGid
        self.peerPid = peerPid
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "server": .string(server), "version": .string(version), "protocol": .integer(Int64(`protocol`)),
            "instance": .string(instance), "role": .string(role.rawValue),
            "peer": .object([
                "uid": .integer(Int64(peerUid)), "gid": .integer(Int64(peerGid)), "pid": .integer(Int64(peerPid)),
            ]),
        ]
        if let backend { object["backend"] = .string(backend) }
        return .object(object)
    }

    public init?(json: JSONValue) {
        guard let server = json["server"]?.stringValue, let instance = json["instance"]?.stringValue else {
            return nil
        }
        self.server = server
        self.version = json["version"]?.stringValue ?? ""
        self.protocol = Int(json["protocol"]?.int64Value ?? 0)
        self.instance = instance
        self.role = json["role"]?.stringValue.flatMap(LocalAPIRole.init(rawValue:)) ?? .none
        self.peerUid = UInt32(clamping: json["peer"]?["uid"]?.int64Value ?? 0)
        self.peerGid = UInt32(clamping: json["peer"]?["gid"]?.int64Value ?? 0)
        self.peerPid = Int32(clamping: json["peer"]?["pid"]?.int64Value ?? 0)
        self.backend = json["backend"]?.stringValue
    }
}
