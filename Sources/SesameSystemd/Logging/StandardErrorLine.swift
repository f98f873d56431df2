import Logging

/// Formats one log record as a stderr line: `<N>message key=value …` (sd-daemon.h prefixes) for
/// journald's stream, or `sesamed: message key=value …` (`sesamed: warning: …` for levels other
/// than info and notice) for a person.
///
/// Metadata is sorted by key. A value with spaces, quotes, `=`, or control characters is
/// double-quoted with `\"`, `\\`, `\n`, `\r`, `\t` escapes; the message has its line breaks
/// escaped so one record is always one line.
public enum StandardErrorLine {
    /// The line for journald's stream, without the trailing newline.
    public static func format(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        withFields(SyslogPriority(level).linePrefix + escapeLineBreaks(message), metadata)
    }

    /// The line for a person, without the trailing newline.
    /// - Parameter identifier: the program's name, e.g. `"sesamed"`.
    public static func formatForPerson(
        level: Logger.Level, message: String, metadata: Logger.Metadata, identifier: String
    ) -> String {
        let tag = level == .info || level == .notice ? "" : "\(level.rawValue): "
        return withFields("\(identifier): \(tag)" + escapeLineBreaks(message), metadata)
    }

    private static func withFields(_ sentence: String, _ metadata: Logger.Metadata) -> String {
        var line = sentence
        for key in metadata.keys.sorted() {
            line += " \(escapeKey(key))=\(quoteIfNeeded(flatten(metadata[key]!)))"
        }
        return line
    }

    /// A metadata value as one string: lists as `[a, b]`, dictionaries as `[k: v]`.
    static func flatten(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): "[" + values.map(flatten).joined(separator: ", ") + "]"
        case .dictionary(let values):
            "[" + values.keys.sorted().map { "\($0): \(flatten(values[$0]!))" }.joined(separator: ", ") + "]"
        }
    }

    static func quoteIfNeeded(_ value: String) -> String {
        let needsQuotes =
            value.isEmpty
            || value.unicodeScalars.contains { scalar in
                scalar == " " || scalar == "\"" || scalar == "=" || scalar == "\\" || scalar.value < 0x20
                    || scalar.value == 0x7F
            }
        guard needsQuotes else { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted += "\\x" + String(scalar.value, radix: 16, uppercase: false).leftPadded(to: 2)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    static func escapeKey(_ key: String) -> String {
        String(
            key.unicodeScalars.map { scalar -> Character in
                scalar == " " || scalar == "=" || scalar == "\"" || scalar.value < 0x20 ? "_" : Character(scalar)
            })
    }

    static func escapeLineBreaks(_ message: String) -> String {
        guard message.contains(where: \.isNewline) else { return message }
        var escaped = ""
        for character in message {
            switch character {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\r\n": escaped += "\\r\\n"
            default: escaped.append(character.isNewline ? " " : character)
            }
        }
        return escaped
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
