import Foundation

/// The identity providers' RFC 8628 endpoints, as the domain needs them: one adapter speaks to
/// every configured provider (`[oauth.<providerId>]`). The domain never learns the endpoints.
///
/// Every method throws only ``RemoteAuthError``: `.unsupported` for a provider with no
/// configuration (its text names the key to set), `.rejected` for a definitive refusal, the
/// transient cases as for the backend.
public protocol DeviceAuthorizationClient: Sendable {
    /// What the configuration says about `providerId`, without calling anyone.
    func provider(_ providerId: String) throws(RemoteAuthError) -> DeviceFlowProvider
    /// Asks the provider for a device code and the user code to show.
    func start(providerId: String) async throws(RemoteAuthError) -> DeviceAuthorization
    /// Polls the token endpoint once.
    func poll(providerId: String, deviceCode: DeviceCode) async throws(RemoteAuthError) -> DevicePollAnswer
}

/// A configured device-flow provider.
public struct DeviceFlowProvider: Sendable, Hashable {
    public var providerId: String
    /// Whether its token answer carries an OIDC ID token (Google, any OIDC server asked for the
    /// `openid` scope); GitHub yields an access token only.
    public var yieldsIDToken: Bool

    public init(providerId: String, yieldsIDToken: Bool) {
        self.providerId = providerId
        self.yieldsIDToken = yieldsIDToken
    }
}

/// The device code: a secret that only the daemon and the provider see.
public struct DeviceCode: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { "DeviceCode(redacted)" }
}

/// The provider's answer to a device authorization request (RFC 8628 §3.2).
public struct DeviceAuthorization: Sendable, Hashable {
    public var deviceCode: DeviceCode
    public var userCode: String
    public var verificationUri: String
    public var verificationUriComplete: String?
    /// Seconds the codes stay valid.
    public var expiresIn: TimeInterval
    /// Seconds between polls (RFC 8628: 5 when the provider says nothing).
    public var interval: TimeInterval

    public init(
        deviceCode: DeviceCode, userCode: String, verificationUri: String, verificationUriComplete: String?,
        expiresIn: TimeInterval, interval: TimeInterval
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationUri = verificationUri
        self.verificationUriComplete = verificationUriComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }
}

/// One answer of the token endpoint to a device-code poll (RFC 8628 §3.5).
public enum DevicePollAnswer: Sendable, Hashable {
    /// `authorization_pending`: the person has not finished yet.
    case pending
    /// `slow_down`: poll less often; `interval` when the provider said the new one.
    case slowDown(interval: TimeInterval?)
    /// `access_denied`: the person declined.
    case denied
    /// `expired_token`: the device code expired.
    case expired
    /// The provider's tokens.
    case approved(FederatedCredential)
}
