import Logging

/// The fields of one native journal entry, in send order.
///
/// Always `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER`, `CODE_FILE`, `CODE_LINE`,
/// `CODE_FUNC`, then `<PREFIX>LOGGER` (the logger's label), then every metadata key escaped
/// by ``JournalFieldName`` (sorted; on a name clash after escaping, the later key wins).
public struct JournalEntry: Sendable, Hashable {
    /// `(name, value)` pairs; names are valid journal field names.
    public var fields: [Field]

    /// One journal field.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    /// Builds the entry for a record.
    /// - Parameters:
    ///   - identifier: `SYSLOG_IDENTIFIER`, e.g. `"sesamed"`.
    ///   - label: the logger's label.
    ///   - fieldPrefix: the prefix of metadata fields, e.g. `"SESAME_"`.
    public init(
        level: Logger.Level, message: String, metadata: Logger.Metadata, identifier: String, label: String,
        fieldPrefix: String, file: String, function: String, line: UInt
    ) {
        fields = [
            Field(name: "MESSAGE", value: message),
            Field(name: "PRIORITY", value: String(SyslogPriority(level).rawValue)),
            Field(name: "SYSLOG_IDENTIFIER", value: identifier),
            Field(name: "CODE_FILE", value: file),
            Field(name: "CODE_LINE", value: String(line)),
            Field(name: "CODE_FUNC", value: function),
            Field(name: JournalFieldName.escaping("LOGGER", prefix: fieldPrefix), value: label),
        ]
        var custom: [String: String] = [:]
        for key in metadata.keys.sorted() {
            custom[JournalFieldName.escaping(key, prefix: fieldPrefix)] = StandardErrorLine.flatten(metadata[key]!)
        }
        fields += custom.keys.sorted().map { Field(name: $0, value: custom[$0]!) }
    }

    /// Sends the entry with `sd_journal_sendv`.
    /// - Returns: 0 on success or a negative errno (journald missing is reported as success by
    ///   libsystemd, which is why ``LogSink`` checks for the socket).
    @discardableResult
    public func send() -> Int32 {
        JournalSender.send(fields.map { Array("\($0.name)=\($0.value)".utf8) })
    }
}
