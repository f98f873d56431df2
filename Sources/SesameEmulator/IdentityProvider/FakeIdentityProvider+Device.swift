/// The RFC 8628 device flow: issue a code, let a person approve or deny it, answer polls.
extension FakeIdentityProvider {
    /// Consonants without the ambiguous ones (no vowels, so no words; no Y).
    static let userCodeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

    /// Issues a device code and a user code (`ABCD-EFGH`) for `providerId`.
    func startDeviceAuthorization(providerId: String, clientId: String?, scope: String?) -> DeviceAuthorization {
        dropExpiredDevices()
        var userCode: String
        repeat {
            userCode = Self.normalizedUserCode(RandomIdentifier.make(8, from: Self.userCodeAlphabet))
        } while devices.values.contains { $0.userCode == userCode }
        let device = DeviceAuthorization(
            providerId: providerId, deviceCode: RandomIdentifier.make(40, from: RandomIdentifier.urlSafe),
            userCode: userCode, clientId: clientId, scope: scope, expiresAt: now + deviceCodeLifetime * 1000,
            interval: pollInterval)
        devices[device.deviceCode] = device
        return device
    }

    /// Forgets device codes that expired more than an hour ago.
    private func dropExpiredDevices() {
        let horizon = now - 3_600_000
        devices = devices.filter { $0.value.expiresAt > horizon }
    }

    /// `userCode` as typed by a person: upper-cased, spaces dropped, the dash optional.
    static func normalizedUserCode(_ typed: String) -> String {
        let letters = typed.uppercased().filter { $0.isLetter }
        guard letters.count == 8 else { return typed.uppercased() }
        return String(letters.prefix(4)) + "-" + String(letters.suffix(4))
    }

    /// Records a person's decision on a pending code of `providerId`.
    /// - Parameter identity: who approved, or `nil` for a denial.
    /// - Throws: 404 `invalid_user_code` for an unknown code, 400 `expired_token` for an expired
    ///   one, 400 `invalid_request` for a code already approved or denied.
    func decide(userCode typed: String, providerId: String, identity: FakeIdentity?) throws(OAuthError) {
        let userCode = Self.normalizedUserCode(typed)
        let found = devices.first { $0.value.userCode == userCode && $0.value.providerId == providerId }
        guard case (let key, var device)? = found else {
            throw OAuthError(
                error: "invalid_user_code", description: "No device is waiting for this code.", httpStatus: 404)
        }
        if now >= device.expiresAt { throw .expiredToken }
        guard device.status == .pending else { throw .invalidRequest("This code was already approved or denied.") }
        device.status = identity.map { .approved($0) } ?? .denied
        devices[key] = device
    }

    /// Answers a device_code grant poll (RFC 8628 §3.5).
    /// - Throws: `authorization_pending`, `slow_down` (the interval grows by 5 s and is sent
    ///   back), `access_denied`, `expired_token`, or `invalid_grant` for an unknown or used code.
    func poll(deviceCode: String, providerId: String, clientId: String?, issuer: String) throws(OAuthError) -> TokenSet
    {
        guard var device = devices[deviceCode], device.providerId == providerId else {
            throw .invalidGrant("The device code is unknown.")
        }
        if let clientId, let expected = device.clientId, !clientId.isEmpty, clientId != expected {
            throw .invalidGrant("The device code was issued to another client.")
        }
        if device.status == .used { throw .invalidGrant("The device code was already used.") }
        let at = now
        if at >= device.expiresAt { throw .expiredToken }
        defer { devices[deviceCode] = device }
        if let last = device.lastPollAt, at - last < device.interval * 1000 - Self.pollTolerance {
            device.interval += 5
            device.lastPollAt = at
            throw OAuthError(
                error: "slow_down", description: "Polled too often: wait \(device.interval) seconds between polls.",
                interval: device.interval)
        }
        device.lastPollAt = at
        switch device.status {
        case .pending: throw .authorizationPending
        case .denied: throw .accessDenied
        case .used: throw .invalidGrant("The device code was already used.")
        case .approved(let identity):
            device.status = .used
            return issueTokens(
                for: identity, clientId: device.clientId, scope: device.scope, nonce: nil, issuer: issuer)
        }
    }
}
