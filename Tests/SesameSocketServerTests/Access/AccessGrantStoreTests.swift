import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameSocketServer

@Suite("Grants remembered always: kept per uid and executable file")
struct AccessGrantStoreTests {
    static let file = FileIdentity(device: 2049, inode: 1234)

    static func grant(_ remember: AccessGrant.Remember) -> AccessGrant {
        AccessGrant(
            grantId: "g-1", role: .reader, remember: remember, uid: 1000, user: "ann", executable: "/usr/bin/notes",
            file: file, pid: nil, grantedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    static func peer(
        uid: UInt32 = 1000, executable: String = "/usr/bin/notes", file: FileIdentity = file
    )
        -> PeerCredentials
    {
        PeerCredentials(
            pid: 42, uid: uid, gid: uid, process: PeerProcess(executable: executable, executableFile: file))
    }

    @Test("saved with mode 0600 and read back; a damaged file grants nothing")
    func roundTrip() throws {
        let directory = try makeTemporaryDirectory("grants")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = AccessGrantStore(path: directory + "/access-grants.json")
        #expect(store.load().isEmpty)
        try store.save([Self.grant(.always)])
        #expect(store.load() == [Self.grant(.always)])
        let mode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try "{not json".write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(store.load().isEmpty)
    }

    @Test("a remembered grant applies to the same uid, path and file only; one for a connection never")
    func applies() {
        let always = Self.grant(.always)
        #expect(always.applies(to: Self.peer()))
        #expect(!always.applies(to: Self.peer(uid: 1001)))
        #expect(!always.applies(to: Self.peer(executable: "/tmp/notes")))
        #expect(!always.applies(to: Self.peer(file: FileIdentity(device: 2049, inode: 1235))))
        #expect(!always.applies(to: PeerCredentials(pid: 42, uid: 1000, gid: 1000)))
        #expect(!Self.grant(.connection).applies(to: Self.peer()))
    }
}
