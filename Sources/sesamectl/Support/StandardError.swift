import Foundation

/// Lines for standard error, each prefixed with the program's name, with any control character
/// in them made visible (`TerminalText`: a message may quote the backend).
enum StandardError {
    /// `erasingLine`: the line starts by erasing what a waiting indicator drew on a terminal.
    static func print(_ message: String, erasingLine: Bool = false) {
        let erase = erasingLine && isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[2K" : ""
        FileHandle.standardError.write(Data("\(erase)sesamectl: \(TerminalText.sanitized(message))\n".utf8))
    }
}
