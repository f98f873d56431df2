import Foundation

/// A second factor enrolled on the account (`User.factors`): the wire object, and
/// SesameClient's public value.
public struct SesameSecondFactor: Sendable, Hashable {
    public var factorId: String
    /// `totp`, or the backend's own kind passed through.
    public var type: String
    public var displayName: String?
    public var enrolledAt: Date?

    public init(factorId: String, type: String, displayName: String? = nil, enrolledAt: Date? = nil) {
        self.factorId = factorId
        self.type = type
        self.displayName = displayName
        self.enrolledAt = enrolledAt
    }

    public var json: JSONValue {
        .object([
            "factorId": .string(factorId), "type": .string(type), "displayName": .optional(displayName),
            "enrolledAt": WireTime.json(enrolledAt),
        ])
    }

    /// Reads a factor object; nil without `factorId`.
    public init?(json: JSONValue) {
        guard let factorId = json["factorId"]?.stringValue else { return nil }
        self.init(
            factorId: factorId, type: json["type"]?.stringValue ?? "totp",
            displayName: json["displayName"]?.stringValue,
            enrolledAt: json["enrolledAt"]?.stringValue.flatMap(WireTime.parse))
    }
}

/// The open second-factor challenge (`State.secondFactor`, and the data of
/// `second-factor-required`): the wire object, and SesameClient's public value. Never a secret.
public struct SesameSecondFactorChallenge: Sendable, Hashable {
    public var challengeId: String
    public var factors: [SesameSecondFactor]
    public var expiresAt: Date

    public init(challengeId: String, factors: [SesameSecondFactor], expiresAt: Date) {
        self.challengeId = challengeId
        self.factors = factors
        self.expiresAt = expiresAt
    }

    /// The members of the object (also merged into an error's `data`).
    public var members: [String: JSONValue] {
        [
            "challengeId": .string(challengeId), "factors": .array(factors.map(\.json)),
            "expiresAt": .string(WireTime.string(expiresAt)),
        ]
    }

    public var json: JSONValue { .object(members) }

    /// Reads a challenge object (or an error's `data`); nil without `challengeId`.
    public init?(json: JSONValue) {
        guard let challengeId = json["challengeId"]?.stringValue else { return nil }
        self.init(
            challengeId: challengeId,
            factors: json["factors"]?.arrayValue?.compactMap { SesameSecondFactor(json: $0) } ?? [],
            expiresAt: json["expiresAt"]?.stringValue.flatMap(WireTime.parse) ?? Date(timeIntervalSince1970: 0))
    }
}
