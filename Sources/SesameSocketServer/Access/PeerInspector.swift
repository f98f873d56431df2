import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads what a peer's process is (``PeerProcess``) when it connects, from its `/proc`
/// directory, with a check that the directory is the process that connected and not another
/// one that took its pid since:
/// - with a pidfd of the peer (`SO_PEERPIDFD`, Linux 6.5 and later): the process is still
///   alive after its directory was opened, so the pid was not reused;
/// - without one: the process started no later than the connection was accepted;
/// - either way, its start time is the same before and after everything was read (the
///   directory's descriptor keeps every read on one process, or makes it fail).
/// A peer that fails the check is ``PeerProcess/unknown``: no entry that needs what it is
/// matches it.
struct PeerInspector: Sendable {
    let source: any ProcessSource
    /// The namespaces of the system the daemon serves, read once (``OwnNamespaces/reference(in:)``).
    let own: OwnNamespaces

    init(source: any ProcessSource = SystemProcessSource()) {
        self.source = source
        self.own = OwnNamespaces.reference(in: source)
    }

    /// What the peer `pid` is. `connectedAt` is ``ProcessSource/bootTicks()`` when the
    /// connection was accepted; `stillAlive` (from the peer's pidfd) tells whether the process
    /// that connected still runs.
    func inspect(pid: Int32, connectedAt: UInt64, stillAlive: (() -> Bool)?) -> PeerProcess {
        guard pid > 0, let directory = source.directory(of: pid),
            let started = Self.startTime(directory.read("stat"))
        else { return .unknown }
        if let stillAlive {
            guard stillAlive() else { return .unknown }
        } else {
            guard started <= connectedAt else { return .unknown }
        }
        var process = PeerProcess()
        process.mountNamespace = own.mountRelation(of: directory)
        process.pidNamespace = own.pidRelation(of: directory)
        process.executable = directory.readLink("exe")
        process.executableFile = process.executable == nil ? nil : directory.identity("exe")
        if let cgroup = directory.read("cgroup") {
            let units = SystemdUnits(cgroup: cgroup)
            process.unit = units.unit
            process.userUnit = units.userUnit
            process.userUnitOwner = units.userUnitOwner
        }
        // Only a root the daemon does not share: in its own, the file is whoever wrote it.
        if process.mountNamespace == .other, let info = directory.read("root/.flatpak-info") {
            process.flatpakAppId = Self.flatpakAppId(info)
        }
        guard Self.startTime(directory.read("stat")) == started else { return .unknown }
        return process
    }

    /// Field 22 of `/proc/PID/stat` (`starttime`), counted after the command's closing
    /// parenthesis (the command may hold spaces and parentheses itself).
    static func startTime(_ stat: String?) -> UInt64? {
        guard let stat else { return nil }
        return ProcText.withBytes(stat) { bytes in
            guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
            // After the command: state is field 3, so starttime (22) is the 20th.
            let fields = ProcText.fields(bytes[(close + 1)...], limit: 20)
            guard fields.count >= 20 else { return nil }
            return UInt64(ProcText.string(fields[19]))
        }
    }

    /// `name` of the `[Application]` group of a `.flatpak-info` file.
    static func flatpakAppId(_ text: String) -> String? {
        var group = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                group = line
            } else if group == "[Application]", line.hasPrefix("name=") {
                let name = String(line.dropFirst("name=".count))
                return name.isEmpty ? nil : name
            }
        }
        return nil
    }
}
