import Foundation
import Logging
import NIOHTTP1
import SesameCore
import SesameHTTP

/// A ``DeviceAuthorizationClient`` over the identity providers' RFC 8628 endpoints: Google and
/// GitHub built in, any other provider by its `[oauth."<providerId>"]` table, and an
/// emulator's fake provider when the daemon talks to an emulator (``DeviceProviderDirectory``
/// has the rules).
///
/// Requests are form-encoded POSTs with `Accept: application/json`, sent once through the
/// shared pipeline (one debug line per call: its name and status, never a URL or a body).
/// An answer with an `error` is a refusal whatever its status: GitHub answers its errors with
/// 200. The device code, the client secret and the provider's tokens are never logged and
/// never put in an error.
public struct OAuthDeviceClient: DeviceAuthorizationClient {
    /// The RFC 8628 grant type of the token request.
    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"
    /// RFC 8628 §3.2: the interval when the provider gives none.
    static let defaultInterval: TimeInterval = 5
    /// The codes' lifetime when the provider gives none (GitHub's and Google's order of size).
    static let defaultLifetime: TimeInterval = 900

    let directory: DeviceProviderDirectory
    let pipeline: JSONEndpointClient<OAuthErrorClassifier>

    /// - Parameters:
    ///   - providers: the `[oauth."<providerId>"]` tables by provider id.
    ///   - emulatorBase: `http://<auth emulator host>`, or a loopback `supabase.url`, when the
    ///     daemon talks to an emulator; nil otherwise.
    ///   - transport: the daemon's one HTTP transport.
    public init(
        providers: [String: OAuthProviderConfiguration], emulatorBase: String? = nil, transport: any HTTPTransport,
        logger: Logger = Logger(label: "sesame.oauth", factory: { _ in SwiftLogNoOpLogHandler() }),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        var base = emulatorBase
        while base?.hasSuffix("/") == true { base?.removeLast() }
        directory = DeviceProviderDirectory(providers: providers, emulatorBase: base)
        pipeline = JSONEndpointClient(transport: transport, logger: logger, now: now)
    }

    public func provider(_ providerId: String) throws(RemoteAuthError) -> DeviceFlowProvider {
        let resolved = try directory.resolve(providerId)
        return DeviceFlowProvider(providerId: providerId, yieldsIDToken: resolved.yieldsIDToken)
    }

    public func start(providerId: String) async throws(RemoteAuthError) -> DeviceAuthorization {
        let provider = try directory.resolve(providerId)
        var fields = [("client_id", provider.clientId)]
        if !provider.scopes.isEmpty { fields.append(("scope", provider.scopes.joined(separator: " "))) }
        if provider.sendsSecretToDeviceEndpoint, let secret = provider.clientSecret {
            fields.append(("client_secret", secret))
        }
        let context = OAuthCallContext(providerId: providerId, isPoll: false)
        let request = Self.request("oauth.device_code", url: provider.deviceAuthorizationEndpoint, fields: fields)
        let answer = try await exchange(request, context: context)
        if let code = answer.error { throw OAuthErrorClassifier.error(for: code, context: context) }
        guard let deviceCode = answer.deviceCode, let userCode = answer.userCode,
            let verificationUri = answer.verificationUri
        else {
            throw .malformedResponse("\(request.name): no device_code, user_code or verification_uri")
        }
        return DeviceAuthorization(
            deviceCode: DeviceCode(deviceCode), userCode: userCode, verificationUri: verificationUri,
            verificationUriComplete: answer.verificationUriComplete,
            expiresIn: Self.positive(answer.expiresIn) ?? Self.defaultLifetime,
            interval: Self.positive(answer.interval) ?? Self.defaultInterval)
    }

    public func poll(providerId: String, deviceCode: DeviceCode) async throws(RemoteAuthError) -> DevicePollAnswer {
        let provider = try directory.resolve(providerId)
        var fields = [
            ("grant_type", Self.deviceCodeGrant), ("device_code", deviceCode.rawValue),
            ("client_id", provider.clientId),
        ]
        if let secret = provider.clientSecret { fields.append(("client_secret", secret)) }
        let context = OAuthCallContext(providerId: providerId, isPoll: true)
        let request = Self.request("oauth.token", url: provider.tokenEndpoint, fields: fields)
        let answer = try await exchange(request, context: context)
        if let code = answer.error {
            return try OAuthErrorClassifier.pollAnswer(for: code, interval: answer.interval, context: context)
        }
        guard answer.idToken != nil || answer.accessToken != nil else {
            throw .malformedResponse("\(request.name): no access_token or id_token")
        }
        return .approved(
            FederatedCredential(providerId: providerId, idToken: answer.idToken, accessToken: answer.accessToken))
    }

    /// Sends `request`; a 2xx answer, or any answer below 500 that carries an OAuth `error`, is
    /// returned decoded. Anything else is thrown as classified (429 and 5xx by status).
    private func exchange(
        _ request: HTTPRequest, context: OAuthCallContext
    ) async throws(RemoteAuthError) -> OAuthAnswer {
        let response = try await pipeline.response(request, context: context, accepting: Set(200..<500))
        if let answer = try? JSONBody.decode(OAuthAnswer.self, from: response.bytes),
            answer.error != nil || response.isSuccess
        {
            return answer
        }
        guard response.isSuccess else { throw pipeline.refusal(response, call: request.name, context: context) }
        return try JSONEndpointClient<OAuthErrorClassifier>.decode(OAuthAnswer.self, from: response, call: request.name)
    }

    static func request(_ name: String, url: String, fields: [(String, String)]) -> HTTPRequest {
        HTTPRequest.form(name: name, method: .POST, url: url, headers: ["Accept": "application/json"], fields: fields)
    }

    static func positive(_ value: Double?) -> TimeInterval? {
        guard let value, value > 0, value.isFinite else { return nil }
        return value
    }
}
