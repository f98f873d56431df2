import Foundation
import SesameSocketServer

extension DaemonConfiguration {
    /// The keys `backend.provider = "firebase"` needs.
    func validateFirebase(origin: String) throws(ConfigurationError) {
        if apiKey.isEmpty {
            throw ConfigurationError(message: "\(origin)'firebase.api_key' is required (the project's Web API key)")
        }
        if projectId.isEmpty {
            throw ConfigurationError(message: "\(origin)'firebase.project_id' is required")
        }
        for (name, host) in [
            ("firebase.auth_emulator_host", authEmulatorHost),
            ("firebase.database_emulator_host", databaseEmulatorHost),
        ] {
            if let host, host.contains("/") || !host.contains(":") {
                throw ConfigurationError(message: "\(origin)'\(name)' must be host:port without a scheme, not \(host)")
            }
        }
        if let databaseURL, URL(string: databaseURL)?.host == nil {
            throw ConfigurationError(message: "\(origin)'firebase.database_url' is not a URL: \(databaseURL)")
        }
    }

    /// `metrics.textfile_path`: an absolute path of a `.prom` file (node_exporter's textfile
    /// collector reads only those) in a directory that exists.
    func validateMetrics(origin: String) throws(ConfigurationError) {
        guard let path = metricsTextfilePath else { return }
        guard path.hasPrefix("/"), path.hasSuffix(".prom") else {
            throw ConfigurationError(
                message: "\(origin)'metrics.textfile_path' must be an absolute path ending in .prom, not \(path)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConfigurationError(
                message:
                    "\(origin)'metrics.textfile_path': the directory \(directory) does not exist; create it or choose another"
            )
        }
    }

    static func isValidPrincipal(_ entry: String) -> Bool {
        AccessPolicy.Principal(entry) != nil
    }
}
