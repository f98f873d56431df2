import Foundation

/// Copies of a stopped daemon's state directory (its keyring), to put an older session back.
extension DaemonProcess {
    /// Copies every file of the state directory to `directory`. Stop the daemon first.
    func saveState(to directory: String) throws {
        try Self.copyFiles(from: stateDirectory, to: directory)
    }

    /// Puts a copy made by ``saveState(to:)`` back. Stop the daemon first.
    func restoreState(from directory: String) throws {
        try Self.copyFiles(from: directory, to: stateDirectory)
    }

    private static func copyFiles(from source: String, to target: String) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: target, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: source) {
            let destination = target + "/" + name
            if files.fileExists(atPath: destination) { try files.removeItem(atPath: destination) }
            try files.copyItem(atPath: source + "/" + name, toPath: destination)
            // The copy keeps the original's mode (the key stays 0600: sesamed refuses a looser one).
            let mode = try files.attributesOfItem(atPath: source + "/" + name)[.posixPermissions]
            if let mode { try files.setAttributes([.posixPermissions: mode], ofItemAtPath: destination) }
        }
    }
}
