/// What the emulator says on standard error at start about who can reach it and what they
/// may do: it checks no credentials (it is for tests), and its database is open until rules are
/// uploaded. Pure.
enum StartupWarnings {
    /// - Parameters:
    ///   - host: the address every listener binds (`--host`).
    ///   - databaseURL: the database's address as printed, for the rules upload's example.
    static func lines(host: String, databaseURL: String, namespace: String) -> [String] {
        var lines: [String] = []
        if !isLoopback(host) {
            lines.append(
                "sesame-emulator: warning: listening on \(host), beyond this machine's loopback: anyone who can reach "
                    + "it can create, read and delete accounts, sign in as any of them and read and write the database "
                    + "(the emulator checks no project credentials; it is for tests). Bind 127.0.0.1 (the default) "
                    + "unless other machines must reach it, and then only on a network you trust.")
        }
        lines.append(
            "sesame-emulator: warning: the Realtime Database allows every read and write until security rules are "
                + "uploaded (as Google's emulator without a rules file); rules are not kept across restarts. Upload "
                + "them with: curl -X PUT -H 'Authorization: Bearer owner' --data @rules.json "
                + "'\(databaseURL)/.settings/rules.json?ns=\(namespace)' (docs/emulator.md, Security rules)")
        return lines
    }

    /// An address only this machine reaches: 127.0.0.0/8, ::1 or `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        if name == "localhost" || name == "::1" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
