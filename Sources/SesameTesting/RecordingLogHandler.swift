import Logging
import Synchronization

/// A `LogHandler` that keeps every line (message and metadata) for inspection. Bound to one
/// `Logger` instance; nothing is bootstrapped globally. For tests that check what is (not) logged.
public struct RecordingLogHandler: LogHandler {
    public final class Storage: Sendable {
        private let lines = Mutex<[String]>([])

        public func append(_ line: String) { lines.withLock { $0.append(line) } }
        public var all: [String] { lines.withLock { $0 } }
    }

    public let storage: Storage
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        storage.append("\(event.level) \(event.message) \(rendered)")
    }

    /// A logger at trace level writing into a fresh storage.
    public static func logger() -> (Logger, Storage) {
        let storage = Storage()
        return (Logger(label: "test", factory: { _ in RecordingLogHandler(storage: storage) }), storage)
    }
}
