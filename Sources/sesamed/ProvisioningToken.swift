import Foundation
import SesameKeyring

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
    /// The file is not what it should be (a link, a FIFO, another user's, writable by others):
    /// the daemon refuses to start (exit 78) with this message, which says what to do.
    case refused(String)

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

    /// Read with the keyring's checks (``GuardedFile``): never through a symbolic link, never
    /// blocking on a FIFO, only a regular file of the daemon's user or root that group and
    /// others cannot write, and at most ``maximumSize`` bytes read whatever its size.
    private static func read(path: String) -> ProvisioningToken {
        let bytes: [UInt8]
        do {
            guard let contents = try GuardedFile.contents(of: path, rules: .provisioningToken) else {
                return .unusable(warning: problem(path, "No such file or directory"))
            }
            bytes = contents
        } catch {
            switch error {
            case .unsafe(let message): return .refused(message)
            case .unreadable(let reason): return .unusable(warning: problem(path, reason))
            }
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
        case .refused(let message): message
        }
    }
}
