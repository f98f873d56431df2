/// Why the emulator could not start, import or export.
public struct SesameEmulatorError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the port, file or directory involved.
    public let message: String

    public var description: String { message }

    init(_ message: String) { self.message = message }
}
