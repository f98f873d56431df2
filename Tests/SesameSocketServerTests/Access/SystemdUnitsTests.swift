import Foundation
import Testing

@testable import SesameSocketServer

@Suite("Systemd units from a cgroup path")
struct SystemdUnitsTests {
    @Test(
        "the first service or scope below the slices; a user manager's own unit below it",
        arguments: [
            ("/system.slice/sshd.service", "sshd.service", nil),
            ("/system.slice/system-getty.slice/getty@tty1.service", "getty@tty1.service", nil),
            ("/user.slice/user-1000.slice/session-2.scope", "session-2.scope", nil),
            (
                "/user.slice/user-1000.slice/user@1000.service/app.slice/app-notes@1.service", "user@1000.service",
                "app-notes@1.service"
            ),
            ("/user.slice/user-1000.slice/user@1000.service/init.scope", "user@1000.service", "init.scope"),
            ("/", nil, nil), ("/system.slice", nil, nil), ("/machine/lxc", nil, nil),
        ] as [(String, String?, String?)])
    func units(path: String, unit: String?, userUnit: String?) {
        let units = SystemdUnits(path: path)
        #expect(units.unit == unit)
        #expect(units.userUnit == userUnit)
    }

    @Test("the unified hierarchy's line is read, else the named systemd one of a hybrid setup")
    func cgroupFile() {
        #expect(SystemdUnits(cgroup: "0::/system.slice/a.service\n").unit == "a.service")
        #expect(SystemdUnits(cgroup: "4:memory:/x\n1:name=systemd:/system.slice/b.service\n0::/\n").unit == "b.service")
    }

    @Test("the real /proc: this test process is read as itself, its unit as its cgroup file names it")
    func ownProcess() throws {
        let text = try String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)
        let source = SystemProcessSource()
        let process = PeerInspector(source: source).inspect(
            pid: getpid(), connectedAt: source.bootTicks(), stillAlive: nil)
        #expect(process.unit == SystemdUnits(cgroup: text).unit)
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(process.executable == exe)
        #expect(process.executableFile == FileIdentity.of(path: exe))
        #expect(process.inDaemonNamespaces)
    }
}
