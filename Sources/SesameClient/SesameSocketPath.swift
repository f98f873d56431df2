/// Where the daemon's socket is (DESIGN.md, `sesamectl`).
public enum SesameSocketPath {
    /// The system instance's socket.
    public static let system = "/run/sesame/sesamed.sock"

    /// The user instance's socket under `runtimeDirectory` (`$XDG_RUNTIME_DIR`).
    public static func user(runtimeDirectory: String) -> String {
        let base = runtimeDirectory.hasSuffix("/") ? String(runtimeDirectory.dropLast()) : runtimeDirectory
        return base + "/sesame/sesamed.sock"
    }

    /// The socket to use when none is given: `$SESAME_SOCKET` when set and not empty, else
    /// the user instance's socket when it exists, else the system one.
    ///
    /// A pure function, so callers and tests pass the environment and a file test.
    /// - Parameters:
    ///   - environment: the process environment (`ProcessInfo.processInfo.environment`).
    ///   - fileExists: whether something exists at a path.
    public static func resolve(environment: [String: String], fileExists: (String) -> Bool) -> String {
        if let explicit = environment["SESAME_SOCKET"], !explicit.isEmpty { return explicit }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            let candidate = user(runtimeDirectory: runtime)
            if fileExists(candidate) { return candidate }
        }
        return system
    }
}
