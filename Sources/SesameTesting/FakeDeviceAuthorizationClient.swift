import Foundation
import SesameCore

/// Identity providers' device endpoints in memory: each configured provider starts flows with
/// a fixed lifetime and interval, and answers polls from a script (``pending`` when the script
/// is empty). Records when each poll came, on the test's clock.
public actor FakeDeviceAuthorizationClient: DeviceAuthorizationClient {
    private let clock: ManualClock
    /// Configured providers: id → whether they yield an ID token.
    private nonisolated let providers: [String: Bool]
    public var expiresIn: TimeInterval
    public var interval: TimeInterval
    private var script: [Result<DevicePollAnswer, RemoteAuthError>] = []
    private var startFailures: [RemoteAuthError] = []
    private var number = 0
    /// When each poll came, and the device code it carried.
    public private(set) var polls: [(at: Date, deviceCode: String)] = []
    public private(set) var starts = 0
    /// The device codes handed out, so a test can look for them where they must not be.
    public private(set) var deviceCodes: [String] = []

    /// - Parameter providers: provider id → whether it yields an ID token (Google yes, GitHub no).
    public init(
        clock: ManualClock, providers: [String: Bool] = ["google.com": true, "github.com": false],
        expiresIn: TimeInterval = 600, interval: TimeInterval = 5
    ) {
        self.clock = clock
        self.providers = providers
        self.expiresIn = expiresIn
        self.interval = interval
    }

    // MARK: Knobs

    /// The next polls answer these, in order.
    public func answer(_ answers: DevicePollAnswer...) {
        script += answers.map { .success($0) }
    }

    /// The next poll fails with `error`.
    public func fail(with error: RemoteAuthError) { script.append(.failure(error)) }

    /// The next start fails with `error`.
    public func failStart(with error: RemoteAuthError) { startFailures.append(error) }

    /// The person approves with this identity: the next poll answers with its ID token (or,
    /// for a provider without one, its access token).
    public func approve(providerId: String, identity: String) {
        let credential =
            providers[providerId] == false
            ? FederatedCredential(providerId: providerId, idToken: nil, accessToken: identity)
            : FederatedCredential(providerId: providerId, idToken: identity, accessToken: nil)
        script.append(.success(.approved(credential)))
    }

    public var pollCount: Int { polls.count }

    // MARK: DeviceAuthorizationClient

    public nonisolated func provider(_ providerId: String) throws(RemoteAuthError) -> DeviceFlowProvider {
        guard let yields = providers[providerId] else {
            throw .unsupported("No device sign-in is configured for \(providerId): set [oauth.\"\(providerId)\"].")
        }
        return DeviceFlowProvider(providerId: providerId, yieldsIDToken: yields)
    }

    public func start(providerId: String) async throws(RemoteAuthError) -> DeviceAuthorization {
        starts += 1
        if !startFailures.isEmpty { throw startFailures.removeFirst() }
        _ = try provider(providerId)
        number += 1
        let code = "device-code-\(number)"
        deviceCodes.append(code)
        return DeviceAuthorization(
            deviceCode: DeviceCode(code), userCode: "WDJB-MJH\(number)",
            verificationUri: "https://idp.fake.invalid/device",
            verificationUriComplete: "https://idp.fake.invalid/device?user_code=WDJB-MJH\(number)",
            expiresIn: expiresIn, interval: interval)
    }

    public func poll(providerId: String, deviceCode: DeviceCode) async throws(RemoteAuthError) -> DevicePollAnswer {
        polls.append((clock.date, deviceCode.rawValue))
        guard !script.isEmpty else { return .pending }
        return try script.removeFirst().get()
    }
}
