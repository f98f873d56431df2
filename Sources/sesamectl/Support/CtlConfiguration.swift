import Foundation
import TOMLKit

/// sesamectl's own settings: `[credential] hosts`, the remotes `sesamectl credential` may hand
/// the ID token to. Read from `/etc/sesame/sesamectl.toml` and
/// `${XDG_CONFIG_HOME:-~/.config}/sesame/sesamectl.toml`; the lists of both files count.
struct CtlConfiguration: Equatable, Sendable {
    var credentialHosts: [String] = []

    /// A file that cannot be read as sesamectl's configuration; `message` names it.
    struct Invalid: Error {
        var message: String
    }

    /// The files read, system first.
    static func files(environment: [String: String]) -> [String] {
        var files = ["/etc/sesame/sesamectl.toml"]
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            files.append(xdg + "/sesame/sesamectl.toml")
        } else if let home = environment["HOME"], !home.isEmpty {
            files.append(home + "/.config/sesame/sesamectl.toml")
        }
        return files
    }

    /// The settings of every file of ``files(environment:)`` that exists.
    static func load(environment: [String: String]) throws(Invalid) -> CtlConfiguration {
        var configuration = CtlConfiguration()
        for file in files(environment: environment) where FileManager.default.fileExists(atPath: file) {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw Invalid(message: "cannot read \(file)")
            }
            try configuration.apply(text, file: file)
        }
        return configuration
    }

    /// Applies one file's text.
    mutating func apply(_ text: String, file: String) throws(Invalid) {
        guard let table = try? TOMLTable(string: text) else { throw Invalid(message: "\(file) is not valid TOML") }
        for section in table.keys where section != "credential" {
            throw Invalid(message: "\(file): unknown section [\(section)] (sesamectl reads [credential])")
        }
        guard let credential = table["credential"] else { return }
        guard let credential = credential.table else { throw Invalid(message: "\(file): 'credential' must be a table") }
        for key in credential.keys where key != "hosts" {
            throw Invalid(message: "\(file): unknown key 'credential.\(key)'")
        }
        guard let hosts = credential["hosts"] else { return }
        guard let array = hosts.array, array.allSatisfy({ $0.string != nil }) else {
            throw Invalid(message: "\(file): 'credential.hosts' must be an array of host names")
        }
        credentialHosts += array.compactMap { $0.string }
    }
}
