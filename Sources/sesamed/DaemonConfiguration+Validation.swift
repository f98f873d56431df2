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

    static func isValidPrincipal(_ entry: String) -> Bool {
        AccessPolicy.Principal(entry) != nil
    }
}
