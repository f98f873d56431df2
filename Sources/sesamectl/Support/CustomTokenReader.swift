import ArgumentParser
import Foundation

/// Reads `sign-in --custom-token-file`: the file's content (or standard input's, for `-`),
/// without surrounding whitespace. The token is never printed, not even in an error.
enum CustomTokenReader {
    /// Longer than any custom token or hashed magic-link token.
    static let maximumBytes = 64 * 1024

    static func read(_ path: String) throws -> String {
        let data: Data
        if path == "-" {
            data = bounded(FileHandle.standardInput)
        } else {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw ValidationError("cannot read the custom token file \(path): check the name and its permissions")
            }
            defer { try? handle.close() }
            data = bounded(handle)
        }
        return try token(from: data, source: path == "-" ? "standard input" : path)
    }

    /// What `handle` holds up to one byte past the cap, so the size check sees a larger file
    /// without reading it whole (/dev/zero, a runaway pipe). A pipe or a FIFO is read as it
    /// comes: `--custom-token-file <(command)` is one.
    static func bounded(_ handle: FileHandle) -> Data {
        var data = Data()
        while data.count <= maximumBytes {
            guard let chunk = try? handle.read(upToCount: maximumBytes + 1 - data.count), !chunk.isEmpty else { break }
            data.append(chunk)
        }
        return data
    }

    /// The token in `data`, trimmed.
    static func token(from data: Data, source: String) throws -> String {
        guard data.count <= maximumBytes else {
            throw ValidationError("\(source) is larger than a custom token can be (64 KiB)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ValidationError("\(source) is not text: a custom token is one line of text")
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw ValidationError("\(source) is empty: it should hold the custom token") }
        return token
    }
}
