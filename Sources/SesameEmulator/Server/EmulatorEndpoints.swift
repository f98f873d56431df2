/// What an emulator port serves: the Auth API or the Realtime Database REST API.
///
/// Implementations are `Sendable` values that forward to the actor owning their state; they must
/// turn every bad input into an error reply and never throw.
protocol EmulatorEndpoints: Sendable {
    /// The name under which a request is counted by the fault extension (`accounts:signUp`,
    /// `token`, `GET`…), or `nil` for paths that are not counted.
    func callKey(for request: EmulatorRequest) -> String?

    /// Answers one request.
    func respond(to request: EmulatorRequest) async -> EmulatorReply

    /// The port's error envelope for an injected failure or a transport-level problem.
    func errorReply(status: Int, message: String) -> EmulatorReply

    /// The 413 answer for a body over the 1 MiB cap, in the port's envelope.
    func payloadTooLargeReply() -> EmulatorReply

    /// Called after `/sesame/v1/faults` changed the port's settings.
    func faultSettingsChanged(_ settings: FaultSettings) async
}

extension EmulatorEndpoints {
    /// Called after `/sesame/v1/faults` changed the port's settings. Default: nothing.
    func faultSettingsChanged(_ settings: FaultSettings) async {}
}
