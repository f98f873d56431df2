import Foundation

/// Where `provisioning.token_file` is read from (docs/configuration.md, "Provisioning"): an
/// absolute path as it is; a bare name is a systemd credential, looked up in
/// `$CREDENTIALS_DIRECTORY` (`LoadCredential=enroll:/etc/fleet/token` with
/// `token_file = "enroll"`).
enum ProvisioningTokenSource: Sendable, Hashable {
    /// Not configured.
    case notConfigured
    /// The file to read.
    case file(String)
    /// A credential name while `$CREDENTIALS_DIRECTORY` is not set: nothing to read, said at
    /// start in a warning.
    case credentialWithoutDirectory(String)

    /// - Throws: a configuration error for a relative path (`./token`, `etc/token`) or `.`/`..`.
    init(_ setting: String?, environment: [String: String], origin: String) throws(ConfigurationError) {
        guard let setting, !setting.isEmpty else {
            self = .notConfigured
            return
        }
        if setting.hasPrefix("/") {
            self = .file(setting)
            return
        }
        guard !setting.contains("/"), setting != ".", setting != ".." else {
            throw ConfigurationError(
                message:
                    "\(origin)'provisioning.token_file' must be an absolute path or the name of a systemd credential (LoadCredential=), not \(setting)"
            )
        }
        if let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty {
            self = .file(directory + "/" + setting)
        } else {
            self = .credentialWithoutDirectory(setting)
        }
    }
}
