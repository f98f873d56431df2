/// The systemd units of a process, from its `/proc/PID/cgroup`, the way `sd_pid_get_unit` and
/// `sd_pid_get_user_unit` read them: the first `.service` or `.scope` below the slices is the
/// system unit; when that is a user manager (`user@UID.service`), the first one below its
/// slices is the user unit.
struct SystemdUnits: Sendable, Hashable {
    var unit: String?
    var userUnit: String?
    /// The uid of the user manager holding ``userUnit``.
    var userUnitOwner: UInt32?

    /// The units of a process whose `/proc/PID/cgroup` reads `text`: the unified hierarchy's
    /// line (`0::PATH`), else the named `systemd` one of a hybrid setup.
    init(cgroup text: String) {
        let lines = text.split(separator: "\n")
        let unified = lines.first { $0.hasPrefix("0::") }.map { String($0.dropFirst(3)) }
        let named = lines.lazy.compactMap { line -> String? in
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            return fields.count == 3 && fields[1] == "name=systemd" ? String(fields[2]) : nil
        }.first
        self.init(path: (unified.flatMap { $0 == "/" ? nil : $0 }) ?? named ?? unified ?? "/")
    }

    /// The units of a cgroup path (`/system.slice/sshd.service`).
    init(path: String) {
        let components = path.split(separator: "/").map(String.init)
        guard let (unit, rest) = Self.firstUnit(of: components[...]) else { return }
        self.unit = unit
        guard let owner = Self.userManagerOwner(unit) else { return }
        self.userUnitOwner = owner
        self.userUnit = Self.firstUnit(of: rest)?.unit
    }

    private static func firstUnit(of components: ArraySlice<String>) -> (unit: String, rest: ArraySlice<String>)? {
        guard let index = components.firstIndex(where: { !$0.hasSuffix(".slice") }) else { return nil }
        let name = components[index]
        guard name.hasSuffix(".service") || name.hasSuffix(".scope") else { return nil }
        return (name, components[(index + 1)...])
    }

    /// The uid of `user@UID.service`; nil for any other unit.
    private static func userManagerOwner(_ unit: String) -> UInt32? {
        guard unit.hasPrefix("user@"), unit.hasSuffix(".service") else { return nil }
        return UInt32(unit.dropFirst("user@".count).dropLast(".service".count))
    }
}
