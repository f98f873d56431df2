import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A swift-log handler for services: the native journal with structured fields, `<N>`
/// prefixed lines for journald's stream, or plain lines for a person (see ``LogSink``).
///
/// A struct with value semantics, as swift-log requires: changing the level or metadata of
/// one `Logger` never affects another. The sink is fixed when the handler is made; use
/// ``factory(identifier:environment:logLevel:fieldPrefix:)`` with `LoggingSystem.bootstrap`
/// so the choice is made once, from an injected environment. Never bootstrap in tests: build
/// handlers directly, or test ``JournalEntry`` and ``StandardErrorLine``.
public struct JournalLogHandler: LogHandler {
    /// The logger's label, sent as `<prefix>LOGGER`.
    public let label: String
    /// `SYSLOG_IDENTIFIER`, e.g. `"sesamed"`.
    public let identifier: String
    /// Where records go.
    public let sink: LogSink
    /// The prefix of metadata field names in the journal, e.g. `"SESAME_"`.
    public let fieldPrefix: String

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(
        label: String, identifier: String, sink: LogSink, logLevel: Logger.Level = .info,
        fieldPrefix: String = "SESAME_", metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.identifier = identifier
        self.sink = sink
        self.logLevel = logLevel
        self.fieldPrefix = fieldPrefix
        self.metadataProvider = metadataProvider
    }

    /// A factory for `LoggingSystem.bootstrap(_:metadataProvider:)` (or, ignoring the
    /// provider, `bootstrap(_:)`); detects the sink once, now.
    /// - Parameters:
    ///   - identifier: `SYSLOG_IDENTIFIER` for every handler.
    ///   - environment: the process environment (`JOURNAL_STREAM` is read and compared with
    ///     standard error).
    ///   - logLevel: the level of new handlers.
    public static func factory(
        identifier: String, environment: [String: String], logLevel: Logger.Level = .info,
        fieldPrefix: String = "SESAME_"
    ) -> @Sendable (String, Logger.MetadataProvider?) -> any LogHandler {
        let sink = LogSink.detect(environment: environment)
        return { label, provider in
            JournalLogHandler(
                label: label, identifier: identifier, sink: sink, logLevel: logLevel, fieldPrefix: fieldPrefix,
                metadataProvider: provider)
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = mergedMetadata(event)
        switch sink {
        case .journal:
            JournalEntry(
                level: event.level, message: event.message.description, metadata: merged, identifier: identifier,
                label: label, fieldPrefix: fieldPrefix, file: event.file, function: event.function, line: event.line
            ).send()
        case .journalStream:
            let line = StandardErrorLine.format(
                level: event.level, message: event.message.description, metadata: merged)
            Self.writeToStandardError(Array((line + "\n").utf8))
        case .standardError:
            let line = StandardErrorLine.formatForPerson(
                level: event.level, message: event.message.description, metadata: merged, identifier: identifier)
            Self.writeToStandardError(Array((line + "\n").utf8))
        }
    }

    /// Handler metadata, then the provider's, then the call's (later wins); plus `error`
    /// when the event carries one.
    func mergedMetadata(_ event: LogEvent) -> Logger.Metadata {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        return merged
    }

    private static func writeToStandardError(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
