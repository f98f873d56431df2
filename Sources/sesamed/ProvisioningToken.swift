import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The provisioning token, read once at start from ``ProvisioningTokenSource``
/// (docs/configuration.md, "Provisioning"). Its text is never logged: a problem names the
/// path and the reason only.
enum ProvisioningToken: Sendable, Hashable, CustomStringConvertible {
    /// No `provisioning.token_file`.
    case notConfigured
    /// The token, its surrounding whitespace removed.
    case token(String)
    /// The file is empty (or whitespace): nothing to do.
    case empty(path: String)
    /// The file cannot be used: a warning for the journal, naming the path.
    case unusable(warning: String)

    /// A custom token is a JWT or a hash: far below this.
    static let maximumSize = 64 * 1024

    static func read(_ source: ProvisioningTokenSource) -> ProvisioningToken {
        switch source {
        case .notConfigured:
            return .notConfigured
        case .credentialWithoutDirectory(let name):
            return .unusable(
                warning:
                    "provisioning.token_file names the credential \"\(name)\" but $CREDENTIALS_DIRECTORY is not set (add LoadCredential=\(name):… to the unit, or give an absolute path): not provisioning"
            )
        case .file(let path):
            return read(path: path)
        }
    }

    private static func read(path: String) -> ProvisioningToken {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .unusable(warning: problem(path, String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= maximumSize {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .unusable(warning: problem(path, String(cString: strerror(errno))))
            }
            bytes.append(contentsOf: buffer[..<count])
        }
        guard bytes.count <= maximumSize else {
            return .unusable(warning: problem(path, "larger than \(maximumSize / 1024) KiB, which no token is"))
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            return .unusable(warning: problem(path, "not UTF-8 text"))
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? .empty(path: path) : .token(token)
    }

    private static func problem(_ path: String, _ reason: String) -> String {
        "Cannot read provisioning.token_file \(path) (\(reason)): not provisioning"
    }

    var description: String {
        switch self {
        case .notConfigured: "not configured"
        case .token: "token (redacted)"
        case .empty(let path): "empty \(path)"
        case .unusable(let warning): warning
        }
    }
}
