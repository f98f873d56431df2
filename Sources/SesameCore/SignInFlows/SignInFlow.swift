import Foundation

/// An interactive sign-in the daemon runs for a person (PROTOCOL.md, "Sign-in flows"). No device
/// code, PKCE verifier or backend session id ever (those stay in ``SignInFlows``). A browser
/// flow's ``authorizationUrl`` and ``state`` are set only in the answer to the call that started
/// it: the flow the service keeps and publishes has them nil.
public struct SignInFlow: Sendable, Hashable {
    /// How the person finishes the flow.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// RFC 8628: a code typed on another device.
        case device
        /// RFC 8252: a browser on this machine, back to a loopback listener.
        case browser
    }

    public enum Status: String, Sendable, Hashable, CaseIterable {
        case pending
        case completed
        case failed
        case expired
        case cancelled

        /// Whether the flow has ended.
        public var isFinal: Bool { self != .pending }
    }

    /// What the flow is for.
    public enum Purpose: String, Sendable, Hashable, CaseIterable {
        case signIn = "sign-in"
        case reauthenticate
    }

    public var flowId: String
    public var providerId: String
    public var kind: Kind
    public var status: Status
    public var verificationUri: String?
    public var verificationUriComplete: String?
    public var userCode: String?
    /// Where to send the browser (a browser flow's start answer only: it holds `state`).
    public var authorizationUrl: String?
    /// The `state` the browser's callback must carry (a browser flow's start answer only), so
    /// the caller's loopback listener can tell a forged callback from the browser's.
    public var state: String?
    public var expiresAt: Date
    public var intervalSeconds: Int?
    public var purpose: Purpose

    public init(
        flowId: String, providerId: String, kind: Kind, status: Status = .pending, verificationUri: String? = nil,
        verificationUriComplete: String? = nil, userCode: String? = nil, authorizationUrl: String? = nil,
        state: String? = nil, expiresAt: Date, intervalSeconds: Int? = nil, purpose: Purpose = .signIn
    ) {
        self.flowId = flowId
        self.providerId = providerId
        self.kind = kind
        self.status = status
        self.verificationUri = verificationUri
        self.verificationUriComplete = verificationUriComplete
        self.userCode = userCode
        self.authorizationUrl = authorizationUrl
        self.state = state
        self.expiresAt = expiresAt
        self.intervalSeconds = intervalSeconds
        self.purpose = purpose
    }

    /// The longest a flow stays open, whatever the provider says (PROTOCOL.md: 15 minutes).
    public static let maximumLifetime: TimeInterval = 15 * 60
}
