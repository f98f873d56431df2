import Foundation

/// An interactive sign-in flow (PROTOCOL.md, "Sign-in flows", `SignInFlow`): the wire object, and
/// SesameClient's public value. Never a device code or verifier. A browser flow's
/// ``authorizationUrl`` and ``state`` are only in the answer to the request that started it
/// (null in notifications and anywhere else); a device flow's ``userCode`` and
/// ``verificationUriComplete`` are null for connections below the manager role.
public struct SesameSignInFlow: Sendable, Hashable, Identifiable {
    public var flowId: String
    public var providerId: String
    /// `device` or `browser`.
    public var flow: String
    /// `pending`, `completed`, `failed`, `expired` or `cancelled`.
    public var status: String
    public var verificationUri: String?
    public var verificationUriComplete: String?
    public var userCode: String?
    public var authorizationUrl: String?
    /// The `state` a browser flow's callback must carry (in the answer that started the flow only).
    public var state: String?
    public var expiresAt: Date
    public var intervalSeconds: Int?
    /// `sign-in` or `reauthenticate`.
    public var purpose: String

    public var id: String { flowId }

    /// Whether the flow is still open.
    public var isPending: Bool { status == "pending" }

    public init(
        flowId: String, providerId: String, flow: String, status: String, verificationUri: String?,
        verificationUriComplete: String?, userCode: String?, authorizationUrl: String?, expiresAt: Date,
        intervalSeconds: Int?, purpose: String, state: String? = nil
    ) {
        self.flowId = flowId
        self.providerId = providerId
        self.flow = flow
        self.status = status
        self.verificationUri = verificationUri
        self.verificationUriComplete = verificationUriComplete
        self.userCode = userCode
        self.authorizationUrl = authorizationUrl
        self.expiresAt = expiresAt
        self.intervalSeconds = intervalSeconds
        self.purpose = purpose
        self.state = state
    }

    /// The protocol `SignInFlow` object; fields that do not apply are null.
    public var json: JSONValue {
        .object([
            "flowId": .string(flowId), "providerId": .string(providerId), "flow": .string(flow),
            "status": .string(status), "verificationUri": .optional(verificationUri),
            "verificationUriComplete": .optional(verificationUriComplete), "userCode": .optional(userCode),
            "authorizationUrl": .optional(authorizationUrl), "expiresAt": .string(WireTime.string(expiresAt)),
            "intervalSeconds": intervalSeconds.map { .integer(Int64($0)) } ?? .null, "purpose": .string(purpose),
            "state": .optional(state),
        ])
    }

    /// Reads a protocol `SignInFlow` object; nil without `flowId`, `providerId`, `flow` or `status`.
    public init?(json: JSONValue) {
        guard let flowId = json["flowId"]?.stringValue, let providerId = json["providerId"]?.stringValue,
            let flow = json["flow"]?.stringValue, let status = json["status"]?.stringValue
        else { return nil }
        self.init(
            flowId: flowId, providerId: providerId, flow: flow, status: status,
            verificationUri: json["verificationUri"]?.stringValue,
            verificationUriComplete: json["verificationUriComplete"]?.stringValue,
            userCode: json["userCode"]?.stringValue, authorizationUrl: json["authorizationUrl"]?.stringValue,
            expiresAt: json["expiresAt"]?.stringValue.flatMap(WireTime.parse) ?? Date(timeIntervalSince1970: 0),
            intervalSeconds: json["intervalSeconds"]?.int64Value.map { Int($0) },
            purpose: json["purpose"]?.stringValue ?? "sign-in", state: json["state"]?.stringValue)
    }
}

/// The server side's name for ``SesameSignInFlow``.
public typealias WireSignInFlow = SesameSignInFlow
