import ArgumentParser
import Foundation
import TOMLKit

/// `sesamectl metrics`: the daemon's metrics file (`metrics.textfile_path`), as node_exporter's
/// textfile collector reads it. The daemon opens no port for them and the local API has no
/// method for them: this reads the file the daemon rewrites after every change.
struct MetricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Print sesamed's metrics (Prometheus text format) from its metrics file.",
        discussion: """
            sesamed writes its counters and gauges to the file named by metrics.textfile_path in its \
            configuration (docs/systemd.md, "Metrics"). This command prints that file. The path \
            comes from --file, else from the configuration of the user instance \
            (${XDG_CONFIG_HOME:-~/.config}/sesame/sesamed.toml) when it sets one, else from \
            /etc/sesame/sesamed.toml.
            """)

    @Option(help: ArgumentHelp("The metrics file to read.", valueName: "path"))
    var file: String?

    @Option(
        help: ArgumentHelp("The daemon's configuration file to take metrics.textfile_path from.", valueName: "file"))
    var config: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var path = file ?? ""
        if file == nil {
            do throws(NoPath) {
                path = try Self.configuredPath(files: config.map { [$0] } ?? Self.defaultFiles(environment))
            } catch {
                StandardError.print("metrics: \(error.message)")
                throw ExitCode(ExitStatus.failure.rawValue)
            }
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            StandardError.print(
                "metrics: cannot read \(path): is sesamed running with metrics.textfile_path = \"\(path)\"? "
                    + "It writes the file when it starts (sudo systemctl restart sesamed after setting it).")
            throw ExitCode(ExitStatus.failure.rawValue)
        }
        print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
    }

    /// A reason the path is not known, for people.
    struct NoPath: Error {
        var message: String
    }

    /// The daemon's configuration files to look in, the user instance's first.
    static func defaultFiles(_ environment: [String: String]) -> [String] {
        var files: [String] = []
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            files.append(xdg + "/sesame/sesamed.toml")
        } else if let home = environment["HOME"], !home.isEmpty {
            files.append(home + "/.config/sesame/sesamed.toml")
        }
        return files + ["/etc/sesame/sesamed.toml"]
    }

    /// `metrics.textfile_path` of the first of `files` that sets it.
    static func configuredPath(files: [String]) throws(NoPath) -> String {
        for file in files where FileManager.default.fileExists(atPath: file) {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw NoPath(message: "cannot read \(file); pass --file PATH")
            }
            guard let table = try? TOMLTable(string: text) else { throw NoPath(message: "\(file) is not valid TOML") }
            if let path = table["metrics"]?.table?["textfile_path"]?.string, !path.isEmpty { return path }
        }
        throw NoPath(
            message: "metrics are off: no metrics.textfile_path in \(files.joined(separator: " or ")). "
                + "Set it (docs/configuration.md), restart sesamed, or pass --file PATH")
    }
}
