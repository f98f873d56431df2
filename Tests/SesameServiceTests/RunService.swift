import SesameService

/// Starts `service` and its loop, runs `body` with the service's events (the snapshot already
/// read), then stops the loop: what every service test harness does around a test.
func runService(
    _ service: SessionService, _ body: (inout AsyncStream<SessionEvent>.Iterator) async throws -> Void
) async throws {
    // Opened before the keyring is loaded, so no event is missed; the snapshot is skipped.
    var events = await service.events().makeAsyncIterator()
    _ = await events.next()
    try await service.start()
    let loop = Task { await service.run() }
    defer { loop.cancel() }
    try await body(&events)
    await service.shutdown()
    await loop.value
}
