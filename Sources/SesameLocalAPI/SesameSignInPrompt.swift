import Foundation

/// The open interactive sign-in that every program may show to the person (`State.signInPrompt`):
/// the wire object, and SesameClient's public value. Never a secret; a device flow's
/// ``userCode`` and ``verificationUriComplete`` are null for connections below the manager role
/// (they would let another program approve the flow as someone else).
public struct SesameSignInPrompt: Sendable, Hashable {
    public var flowId: String
    public var providerId: String
    /// `device` or `browser`.
    public var flow: String
    public var verificationUri: String?
    public var verificationUriComplete: String?
    public var userCode: String?
    public var expiresAt: Date

    public init(
        flowId: String, providerId: String, flow: String, verificationUri: String?, verificationUriComplete: String?,
        userCode: String?, expiresAt: Date
    ) {
        self.flowId = flowId
        self.providerId = providerId
        self.flow = flow
        self.verificationUri = verificationUri
        self.verificationUriComplete = verificationUriComplete
        self.userCode = userCode
        self.expiresAt = expiresAt
    }

    public var json: JSONValue {
        .object([
            "flowId": .string(flowId), "providerId": .string(providerId), "flow": .string(flow),
            "verificationUri": .optional(verificationUri),
            "verificationUriComplete": .optional(verificationUriComplete),
            "userCode": .optional(userCode), "expiresAt": .string(WireTime.string(expiresAt)),
        ])
    }

    /// Reads a protocol `signInPrompt` object; nil for null or without `flowId`.
    public init?(json: JSONValue) {
        guard let flowId = json["flowId"]?.stringValue, let providerId = json["providerId"]?.stringValue,
            let flow = json["flow"]?.stringValue
        else { return nil }
        self.init(
            flowId: flowId, providerId: providerId, flow: flow, verificationUri: json["verificationUri"]?.stringValue,
            verificationUriComplete: json["verificationUriComplete"]?.stringValue,
            userCode: json["userCode"]?.stringValue,
            expiresAt: json["expiresAt"]?.stringValue.flatMap(WireTime.parse) ?? Date(timeIntervalSince1970: 0))
    }
}
