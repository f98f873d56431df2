import Foundation
import Testing

@testable import SesameSocketServer

@Suite("What a peer is: the /proc reading and its race check")
struct PeerInspectorTests {
    static let daemonPid = getpid()
    static let own = FakeProcessSource.Process(
        files: ["stat": FakeProcessSource.stat(startedAt: 10)],
        identities: ["ns/mnt": FileIdentity(device: 4, inode: 100), "ns/pid": FileIdentity(device: 4, inode: 200)])

    /// A peer that started at `started`, in the daemon's namespaces unless `mountInode` says.
    static func peer(
        started: UInt64 = 500, mountInode: UInt64 = 100, flatpak: Bool = false
    ) -> FakeProcessSource.Process {
        var files = [
            "stat": FakeProcessSource.stat(startedAt: started),
            "cgroup": "0::/user.slice/user-1000.slice/user@1000.service/app.slice/notes.service\n",
        ]
        if flatpak { files["root/.flatpak-info"] = "[Application]\nname=org.example.Notes\nruntime=x\n" }
        return FakeProcessSource.Process(
            files: files, links: ["exe": "/usr/bin/notes"],
            identities: [
                "exe": FileIdentity(device: 1, inode: 77), "ns/mnt": FileIdentity(device: 4, inode: mountInode),
                "ns/pid": FileIdentity(device: 4, inode: 200),
            ])
    }

    func inspect(_ peer: FakeProcessSource.Process, alive: Bool? = nil) -> PeerProcess {
        let source = FakeProcessSource([Self.daemonPid: Self.own, 42: peer], now: 1_000)
        return PeerInspector(source: source).inspect(pid: 42, connectedAt: 1_000, stillAlive: alive.map { a in { a } })
    }

    @Test("a peer that started before it connected is read: executable, file, units, namespaces")
    func readsPeer() {
        let process = inspect(Self.peer())
        #expect(process.executable == "/usr/bin/notes")
        #expect(process.executableFile == FileIdentity(device: 1, inode: 77))
        #expect(process.unit == "user@1000.service")
        #expect(process.userUnit == "notes.service")
        #expect(process.userUnitOwner == 1000)
        #expect(process.inDaemonNamespaces)
        #expect(process.flatpakAppId == nil)
    }

    @Test("a pid taken by a process that started after the connection is unknown (no pidfd)")
    func pidReusedBeforeCheck() {
        #expect(inspect(Self.peer(started: 1_001)) == .unknown)
    }

    @Test("a pid taken while the daemon reads it is unknown: the start time changed")
    func pidReusedDuringRead() {
        var peer = Self.peer()
        peer.statAfterFirstRead = FakeProcessSource.stat(startedAt: 900)
        #expect(inspect(peer) == .unknown)
    }

    @Test("with a pidfd, a peer that is gone is unknown, one still running is read")
    func pidfd() {
        #expect(inspect(Self.peer(started: 1_001), alive: false) == .unknown)
        #expect(inspect(Self.peer(), alive: true).executable == "/usr/bin/notes")
    }

    @Test("a .flatpak-info in the daemon's own mount namespace does not count; in another one it does")
    func flatpak() {
        #expect(inspect(Self.peer(flatpak: true)).flatpakAppId == nil)
        let sandboxed = inspect(Self.peer(mountInode: 101, flatpak: true))
        #expect(sandboxed.flatpakAppId == "org.example.Notes")
        #expect(sandboxed.mountNamespace == .other)
        #expect(sandboxed.inOtherNamespace)
    }

    @Test("namespaces that cannot be read are learned from mountinfo and NSpid, else unknown")
    func namespacesWithoutPtrace() {
        var own = Self.own
        own.files["mountinfo"] = "22 27 0:21 / /proc rw - proc proc rw\n27 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
        own.files["status"] = "Name:\tsesamed\nNSpid:\t7\n"
        var peer = Self.peer()
        peer.identities["ns/mnt"] = nil
        peer.identities["ns/pid"] = nil
        var inContainer = peer
        peer.files["mountinfo"] = own.files["mountinfo"]
        peer.files["status"] = "NSpid:\t42\n"
        inContainer.files["mountinfo"] = "901 900 8:1 / / rw - ext4 /dev/sda1 rw\n"
        inContainer.files["status"] = "NSpid:\t42\t1\n"
        func inspect(_ process: FakeProcessSource.Process) -> PeerProcess {
            let source = FakeProcessSource([Self.daemonPid: own, 42: process])
            return PeerInspector(source: source).inspect(pid: 42, connectedAt: 1_000, stillAlive: nil)
        }
        #expect(inspect(peer).inDaemonNamespaces)
        #expect(inspect(inContainer).mountNamespace == .other)
        #expect(inspect(inContainer).pidNamespace == .other)
        var unreadable = peer
        unreadable.files["mountinfo"] = nil
        unreadable.files["status"] = nil
        #expect(inspect(unreadable).mountNamespace == .unknown)
        #expect(inspect(unreadable).pidNamespace == .unknown)
    }

    @Test("the start time is field 22 of stat, whatever the command's name holds")
    func startTime() {
        #expect(PeerInspector.startTime(FakeProcessSource.stat(startedAt: 123_456)) == 123_456)
        #expect(PeerInspector.startTime("1 (x) S 1") == nil)
        #expect(PeerInspector.startTime(nil) == nil)
    }
}
