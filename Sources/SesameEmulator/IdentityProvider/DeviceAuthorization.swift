/// One RFC 8628 device authorization the fake identity provider issued.
struct DeviceAuthorization: Sendable {
    enum Status: Sendable, Equatable {
        case pending
        case approved(FakeIdentity)
        case denied
        /// Its tokens were handed out; the code is spent.
        case used
    }

    var providerId: String
    var deviceCode: String
    /// `ABCD-EFGH`.
    var userCode: String
    var clientId: String?
    var scope: String?
    /// Milliseconds since 1970.
    var expiresAt: Int
    /// Seconds the client must wait between polls; `slow_down` adds 5.
    var interval: Int
    /// When the client last polled (milliseconds), `nil` before its first poll.
    var lastPollAt: Int?
    var status: Status = .pending
}
