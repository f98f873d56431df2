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
    /// The file is not what a secret read by a daemon should be (a link, a FIFO, not a regular
    /// file, another user's, writable by group or others): sesamed refuses to start (78) with
    /// this message, which names the path and what to do.
    case refused(message: String)

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

    /// The keyring's checks (``GuardedFile``): opened without following a link and without
    /// blocking on a FIFO, then on the open descriptor a regular file, owned by sesamed's user or
    /// root, not writable by group or others; read up to the cap and no further.
    static let rules = GuardedFile.Rules(
        role: "provisioning token file (provisioning.token_file)", maximumBytes: maximumSize, groupMayRead: true,
        othersMayRead: true,
        replacementAdvice: "Put the token in a regular file there, or point provisioning.token_file at one.")

    private static func read(path: String) -> ProvisioningToken {
        let read: [UInt8]?
        do {
            read = try GuardedFile.contents(of: path, rules: rules)
        } catch {
            switch error {
            case .unsafe(let message): return .refused(message: message)
            case .unreadable(let reason): return .unusable(warning: problem(path, reason))
            }
        }
        guard let bytes = read else { return .unusable(warning: problem(path, "No such file or directory")) }
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
