import Foundation

/// What the start of an interactive sign-in flow asks for.
public struct SignInFlowRequest: Sendable, Hashable {
    public var providerId: String
    public var kind: SignInFlow.Kind
    /// The caller's loopback listener (browser flows only).
    public var redirectUri: String?
    public var purpose: SignInFlow.Purpose

    public init(
        providerId: String, kind: SignInFlow.Kind, redirectUri: String? = nil, purpose: SignInFlow.Purpose = .signIn
    ) {
        self.providerId = providerId
        self.kind = kind
        self.redirectUri = redirectUri
        self.purpose = purpose
    }
}
