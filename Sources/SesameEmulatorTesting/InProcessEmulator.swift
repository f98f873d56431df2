import SesameEmulator

/// The in-process emulator every test target starts the same way: on ephemeral loopback ports
/// (whatever `configuration` says of ports: 0 each, the Supabase one too when it is served),
/// with `body` run against it, and stopped afterwards whether `body` passed or threw.
public func withEmulator<Result: Sendable>(
    _ configuration: EmulatorConfiguration = EmulatorConfiguration(), time: EmulatorTime? = nil,
    _ body: (SesameEmulator) async throws -> Result
) async throws -> Result {
    var ephemeral = configuration
    ephemeral.host = "127.0.0.1"
    ephemeral.authPort = 0
    ephemeral.databasePort = 0
    ephemeral.supabase?.port = 0
    if let time { ephemeral.clock = time.clock }
    let emulator = try await SesameEmulator.start(ephemeral)
    do {
        let result = try await body(emulator)
        await emulator.stop()
        return result
    } catch {
        await emulator.stop()
        throw error
    }
}
