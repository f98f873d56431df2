import Logging
import ServiceLifecycle
import SesameLocalAPI

/// Keeps a data directory (`--data-dir`) up to date with the emulator's state.
///
/// Every request a port handles sends a change notice (``noteChange()``, from
/// ``ChangeNoticeMiddleware``); the saver takes a snapshot after each notice (notices that
/// arrive while it saves are coalesced into one more snapshot) and rewrites only the files whose
/// bytes changed, each atomically and durably. It is the group's first service, so graceful
/// shutdown stops it last, after every port has closed: its final snapshot then holds every
/// answered request. Nothing is written while nothing changes.
struct DataDirectorySaver: Service {
    let directory: String
    let auth: AccountStore
    let database: DatabaseState
    let supabase: GoTrueStore?
    let logger: Logger
    private let notices = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    /// Loads the directory (creating it when missing) into the stores, then saves once, so an
    /// unwritable directory fails the start rather than the first change.
    func load() async throws {
        try DataDirectoryFiles.makeDirectory(directory)
        for subdirectory in ["", "/auth_export", "/database_export", "/supabase_export"] {
            DataDirectoryFiles.removeLeftovers(in: directory + subdirectory)
        }
        try await EmulatorSnapshot.read(from: directory, auth: auth, database: database, supabase: supabase)
        _ = try await save(previous: [:])
    }

    /// Asks for a snapshot soon; never blocks.
    func noteChange() { notices.continuation.yield(()) }

    func run() async throws {
        // The files as last written, so unchanged ones are not rewritten (the first save after
        // start writes them all once more).
        var written: [String: [UInt8]] = [:]
        for await _ in notices.stream.cancelOnGracefulShutdown() {
            do {
                written = try await save(previous: written)
            } catch {
                logger.error("emulator.save.failed", metadata: ["error": "\(error)"])
            }
        }
        _ = try await save(previous: written)
        logger.info("emulator.saved", metadata: ["emulator.data.directory": "\(directory)"])
    }

    /// Writes what differs from `previous`; returns the files now on disk.
    private func save(previous: [String: [UInt8]]) async throws -> [String: [UInt8]] {
        let files = await EmulatorSnapshot.files(auth: auth, database: database, supabase: supabase)
        try EmulatorSnapshot.write(files, to: directory, previous: previous)
        return files
    }
}
