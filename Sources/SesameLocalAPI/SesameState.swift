import Foundation

/// The daemon's session state (PROTOCOL.md, `State`): the wire object, and SesameClient's
/// public value. Never contains a token.
public struct SesameState: Sendable, Hashable {
    public var status: SesameStatus
    /// Nil when `signedOut` or `starting`.
    public var user: SesameUser?
    /// When the ID token the daemon holds expires; nil when it holds none.
    public var tokenExpiresAt: Date?
    public var connectivity: SesameConnectivity
    /// True when usernames are required and the authenticated user has none.
    public var needsUsername: Bool
    public var pendingMerges: [SesameMerge]
    /// The version of the state within one daemon instance; it grows by one per state event.
    public var sequence: Int64
    /// The open interactive sign-in flow any program may show (PROTOCOL.md, "Sign-in flows").
    public var signInPrompt: SesameSignInPrompt?
    /// The open second-factor challenge of a sign-in (PROTOCOL.md, "Second factors").
    public var secondFactor: SesameSecondFactorChallenge?
    /// The backend's rate limit while `connectivity` is `rate-limited` (PROTOCOL.md, "Rate limits").
    public var rateLimit: SesameRateLimit?
    /// Programs' open requests for a role (PROTOCOL.md, "Access"); empty for roles below manager.
    public var accessRequests: [SesameAccessRequest] = []
    /// Why SesameClient's `stateChanges` yielded this state; nil for the results of calls.
    /// Not part of the wire object.
    public var changeReason: SesameChangeReason?

    public init(
        status: SesameStatus, user: SesameUser?, tokenExpiresAt: Date?, connectivity: SesameConnectivity,
        needsUsername: Bool, pendingMerges: [SesameMerge], sequence: Int64, changeReason: SesameChangeReason? = nil,
        signInPrompt: SesameSignInPrompt? = nil, secondFactor: SesameSecondFactorChallenge? = nil,
        rateLimit: SesameRateLimit? = nil
    ) {
        self.rateLimit = rateLimit
        self.signInPrompt = signInPrompt
        self.secondFactor = secondFactor
        self.status = status
        self.user = user
        self.tokenExpiresAt = tokenExpiresAt
        self.connectivity = connectivity
        self.needsUsername = needsUsername
        self.pendingMerges = pendingMerges
        self.sequence = sequence
        self.changeReason = changeReason
    }

    /// The server side's spelling, with `status` and `connectivity` as their raw values.
    public init(
        status: String, user: SesameUser?, tokenExpiresAt: Date?, connectivity: String, needsUsername: Bool,
        pendingMerges: [SesameMerge], sequence: Int64, signInPrompt: SesameSignInPrompt? = nil,
        secondFactor: SesameSecondFactorChallenge? = nil, rateLimit: SesameRateLimit? = nil
    ) {
        self.init(
            status: SesameStatus(rawValue: status), user: user, tokenExpiresAt: tokenExpiresAt,
            connectivity: SesameConnectivity(rawValue: connectivity), needsUsername: needsUsername,
            pendingMerges: pendingMerges, sequence: sequence, signInPrompt: signInPrompt, secondFactor: secondFactor,
            rateLimit: rateLimit)
    }

    /// Whether a user is signed in (anonymous or not).
    public var hasUser: Bool { user != nil }

    /// Whole minutes the held ID token stays valid after `now`; nil without a token, 0 when
    /// it has expired.
    public func tokenValidityMinutes(now: Date = Date()) -> Int? {
        guard let tokenExpiresAt else { return nil }
        return max(0, Int(tokenExpiresAt.timeIntervalSince(now) / 60))
    }

    /// The protocol `State` object (`json.jsonString` for one line of compact JSON).
    public var json: JSONValue {
        .object([
            "status": .string(status.rawValue), "user": user?.json ?? .null,
            "token": tokenExpiresAt.map { .object(["expiresAt": .string(WireTime.string($0))]) } ?? .null,
            "connectivity": .string(connectivity.rawValue), "needsUsername": .bool(needsUsername),
            "pendingMerges": .array(pendingMerges.map(\.json)), "sequence": .integer(sequence),
            "signInPrompt": signInPrompt?.json ?? .null, "secondFactor": secondFactor?.json ?? .null,
            "rateLimit": rateLimit?.json ?? .null, "accessRequests": .array(accessRequests.map(\.json)),
        ])
    }

    /// Reads a protocol `State` object; nil without `status` or `sequence`.
    public init?(json: JSONValue) {
        guard let status = json["status"]?.stringValue, let sequence = json["sequence"]?.int64Value else { return nil }
        self.status = SesameStatus(rawValue: status)
        self.user = json["user"].flatMap { $0.isNull ? nil : SesameUser(json: $0) }
        self.tokenExpiresAt = json["token"]?["expiresAt"]?.stringValue.flatMap(WireTime.parse)
        self.connectivity = SesameConnectivity(rawValue: json["connectivity"]?.stringValue ?? "online")
        self.needsUsername = json["needsUsername"]?.boolValue ?? false
        self.pendingMerges = json["pendingMerges"]?.arrayValue?.compactMap { SesameMerge(json: $0) } ?? []
        self.sequence = sequence
        self.signInPrompt = json["signInPrompt"].flatMap { SesameSignInPrompt(json: $0) }
        self.secondFactor = json["secondFactor"].flatMap { SesameSecondFactorChallenge(json: $0) }
        self.rateLimit = json["rateLimit"].flatMap { SesameRateLimit(json: $0) }
        self.accessRequests = json["accessRequests"]?.arrayValue?.compactMap { SesameAccessRequest(json: $0) } ?? []
        self.changeReason = nil
    }
}

/// The server side's name for ``SesameState``.
public typealias WireState = SesameState
