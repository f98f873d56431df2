import Foundation

/// The open interactive sign-in that every program may show to the person (`State.signInPrompt`).
public struct SignInPrompt: Sendable, Hashable {
    public var flowId: String
    public var providerId: String
    public var kind: SignInFlow.Kind
    public var verificationUri: String?
    public var verificationUriComplete: String?
    public var userCode: String?
    public var expiresAt: Date

    public init(_ flow: SignInFlow) {
        flowId = flow.flowId
        providerId = flow.providerId
        kind = flow.kind
        verificationUri = flow.verificationUri
        verificationUriComplete = flow.verificationUriComplete
        userCode = flow.userCode
        expiresAt = flow.expiresAt
    }
}
