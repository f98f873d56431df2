/// Where the keyring key comes from, decided from the environment at open.
///
/// The systemd credential `keyring.key` in `$CREDENTIALS_DIRECTORY` wins when that file
/// exists (see `LoadCredentialEncrypted=`); otherwise the key is the file `keyring.key` in the
/// keyring's directory, which the store creates (mode 0600) only while there is no keyring.
public enum KeyringKeySource: Sendable, Hashable, CustomStringConvertible {
    /// A systemd credential file; never created by the store.
    case credential(path: String)
    /// A key file beside the keyring; created on first start.
    case file(path: String)

    /// The name of the credential and of the key file.
    public static let fileName = "keyring.key"

    /// Chooses the source for the keyring at `keyringPath`.
    /// - Parameters:
    ///   - keyringPath: the keyring file.
    ///   - environment: the process environment (only `CREDENTIALS_DIRECTORY` is read).
    public static func resolve(keyringPath: String, environment: [String: String]) -> KeyringKeySource {
        if let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty {
            let path = "\(directory)/\(fileName)"
            if DurableFile.exists(path) { return .credential(path: path) }
        }
        return .file(path: "\(DurableFile.directoryName(of: keyringPath))/\(fileName)")
    }

    /// The file the key is read from.
    public var path: String {
        switch self {
        case .credential(let path), .file(let path): path
        }
    }

    public var description: String {
        switch self {
        case .credential(let path): "credential \(path)"
        case .file(let path): "key file \(path)"
        }
    }
}
