import Foundation
import SesameLocalAPI
import Testing

@testable import SesameSocketServer

@Suite("Access entries that name what the peer is")
struct AccessPolicyEntriesTests {
    typealias Principal = AccessPolicy.Principal

    struct Table: AccountDirectory {
        func identity(of peer: PeerCredentials) -> PeerIdentity {
            peer.uid == 1000
                ? PeerIdentity(userName: "ann", groupIDs: [1000], groupNames: ["ann"])
                : PeerIdentity(userName: nil, groupIDs: [peer.gid], groupNames: [])
        }
    }

    /// This test's own executable: a real file whose identity the policy reads.
    static let executable = try! FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")

    static func peer(uid: UInt32 = 1000, _ process: PeerProcess) -> PeerCredentials {
        PeerCredentials(pid: 42, uid: uid, gid: uid, process: process)
    }

    func role(_ peer: PeerCredentials, readers: [String], rootInContainers: Bool = false) -> LocalAPIRole {
        AccessPolicy(daemonUid: 500, readers: readers.compactMap(Principal.init), rootInContainers: rootInContainers)
            .role(for: peer, directory: Table())
    }

    @Test(
        "entries parse, alone or joined",
        arguments: [
            "unit:sshd.service", "unit:session-2.scope", "exe:/usr/bin/notes", "flatpak:org.example.Notes",
            "container", "user:ann exe:/usr/bin/notes", "group:sesame container",
        ])
    func parse(_ entry: String) { #expect(Principal(entry) != nil) }

    @Test(
        "malformed entries do not",
        arguments: ["unit:sshd", "exe:notes", "flatpak:", "containers", "user:ann exe:", "user:ann  bogus", ""])
    func malformed(_ entry: String) { #expect(Principal(entry) == nil) }

    @Test("exe: matches the executable at that path, not a copy elsewhere nor another file put there")
    func exe() {
        let file = FileIdentity.of(path: Self.executable)!
        let entry = "exe:\(Self.executable)"
        let running = PeerProcess(executable: Self.executable, executableFile: file)
        #expect(role(Self.peer(running), readers: [entry]) == .reader)
        let copy = PeerProcess(executable: "/tmp/copy", executableFile: FileIdentity(device: 1, inode: 2))
        #expect(role(Self.peer(copy), readers: [entry]) == .none)
        let replaced = PeerProcess(
            executable: Self.executable, executableFile: FileIdentity(device: file.device, inode: file.inode + 1))
        #expect(role(Self.peer(replaced), readers: [entry]) == .none)
        #expect(role(Self.peer(.unknown), readers: [entry]) == .none)
    }

    @Test("joined parts must all match")
    func joined() {
        let file = FileIdentity.of(path: Self.executable)!
        let running = PeerProcess(executable: Self.executable, executableFile: file)
        let entry = "user:ann exe:\(Self.executable)"
        #expect(role(Self.peer(running), readers: [entry]) == .reader)
        #expect(role(Self.peer(uid: 1001, running), readers: [entry]) == .none)
    }

    @Test("unit: matches the system unit; a user unit only under the daemon's own user manager")
    func unit() {
        let system = PeerProcess(unit: "backup.service")
        #expect(role(Self.peer(system), readers: ["unit:backup.service"]) == .reader)
        #expect(role(Self.peer(system), readers: ["unit:other.service"]) == .none)
        let own = PeerProcess(unit: "user@500.service", userUnit: "notes.service", userUnitOwner: 500)
        #expect(role(Self.peer(own), readers: ["unit:notes.service"]) == .reader)
        let someoneElses = PeerProcess(unit: "user@1000.service", userUnit: "notes.service", userUnitOwner: 1000)
        #expect(role(Self.peer(someoneElses), readers: ["unit:notes.service"]) == .none)
    }

    @Test("flatpak: and container match what the daemon read, nothing else")
    func flatpakAndContainer() {
        let sandboxed = PeerProcess(flatpakAppId: "org.example.Notes", mountNamespace: .other, pidNamespace: .other)
        #expect(role(Self.peer(sandboxed), readers: ["flatpak:org.example.Notes"]) == .reader)
        #expect(role(Self.peer(sandboxed), readers: ["flatpak:org.example.Other"]) == .none)
        #expect(role(Self.peer(sandboxed), readers: ["container"]) == .reader)
        #expect(role(Self.peer(.daemonNamespaces), readers: ["container"]) == .none)
        #expect(role(Self.peer(.unknown), readers: ["container"]) == .none)
    }

    @Test(
        "root and the daemon's uid are managers only in the daemon's namespaces, unless root_in_containers",
        arguments: [UInt32(0), 500])
    func rootInContainers(uid: UInt32) {
        #expect(role(Self.peer(uid: uid, .daemonNamespaces), readers: []) == .manager)
        let contained = PeerProcess(mountNamespace: .other, pidNamespace: .other)
        #expect(role(Self.peer(uid: uid, contained), readers: []) == .none)
        #expect(role(Self.peer(uid: uid, contained), readers: ["container"]) == .reader)
        #expect(role(Self.peer(uid: uid, contained), readers: [], rootInContainers: true) == .manager)
        // Unknown counts as another namespace: never a manager by the rule alone.
        #expect(role(Self.peer(uid: uid, .unknown), readers: []) == .none)
        let halfKnown = PeerProcess(mountNamespace: .same, pidNamespace: .unknown)
        #expect(role(Self.peer(uid: uid, halfKnown), readers: []) == .none)
    }
}
