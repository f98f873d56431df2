extension AccessPolicy {
    /// One `[access]` entry, or one part of an entry whose parts are joined by spaces.
    public indirect enum Principal: Sendable, Hashable {
        case user(String)
        case group(String)
        case uid(UInt32)
        case gid(UInt32)
        /// The systemd unit of the peer's cgroup: its system unit, or on a user instance the
        /// unit of the daemon's own user manager that holds it.
        case unit(String)
        /// The peer's executable: this path, and the file at it now (a copy elsewhere, or a
        /// file put in its place, is another).
        case exe(String)
        case flatpak(String)
        /// A peer in another mount or pid namespace than the daemon's.
        case container
        /// Every part matches.
        case all([Principal])

        /// Parses one entry: `user:NAME`, `group:NAME`, `uid:N`, `gid:N`, `unit:NAME`,
        /// `exe:PATH` (absolute), `flatpak:APP_ID`, `container`, or several of them separated by
        /// spaces; nil when any part is malformed.
        public init?(_ entry: String) {
            let parts = entry.split(separator: " ")
            guard !parts.isEmpty else { return nil }
            if parts.count > 1 {
                var principals: [Principal] = []
                for part in parts {
                    guard let principal = Principal(part: String(part)) else { return nil }
                    principals.append(principal)
                }
                self = .all(principals)
                return
            }
            guard let principal = Principal(part: String(parts[0])) else { return nil }
            self = principal
        }

        private init?(part: String) {
            if part == "container" {
                self = .container
                return
            }
            guard let colon = part.firstIndex(of: ":") else { return nil }
            let kind = part[..<colon]
            let value = String(part[part.index(after: colon)...])
            guard !value.isEmpty else { return nil }
            switch kind {
            case "user": self = .user(value)
            case "group": self = .group(value)
            case "uid":
                guard let n = UInt32(value) else { return nil }
                self = .uid(n)
            case "gid":
                guard let n = UInt32(value) else { return nil }
                self = .gid(n)
            case "unit":
                guard value.hasSuffix(".service") || value.hasSuffix(".scope") else { return nil }
                self = .unit(value)
            case "exe":
                guard value.hasPrefix("/") else { return nil }
                self = .exe(value)
            case "flatpak": self = .flatpak(value)
            default: return nil
            }
        }
    }
}
