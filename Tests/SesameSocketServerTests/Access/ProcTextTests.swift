import Foundation
import Testing

@testable import SesameSocketServer

@Suite("/proc's texts cut as bytes: mountinfo, NSpid, stat")
struct ProcTextTests {
    @Test(
        "the root mount is the last mount at /, whatever the lines around it",
        arguments: [
            ("27 1 8:1 / / rw - ext4 /dev/sda1 rw\n", "27"),
            ("27 1 8:1 / / rw - ext4 /dev/sda1 rw\n22 27 0:21 / /proc rw - proc proc rw\n", "27"),
            ("27 1 8:1 / / rw - ext4 /dev/sda1 rw\n\n901 27 0:50 / / rw - overlay overlay rw\n", "901"),
            ("22 27 0:21 / /proc rw - proc proc rw\n", nil),
            ("27 1 8:1 /\n12 1\n", nil),
            ("30 1 8:1 / /mnt\\040/ rw - ext4 /dev/sdb1 rw\n", nil),
            ("", nil),
        ] as [(String, String?)])
    func rootMountID(text: String, expected: String?) {
        #expect(OwnNamespaces.rootMountID(text) == expected)
    }

    @Test(
        "the pid depth counts NSpid's pids, between spaces or tabs",
        arguments: [
            ("Name:\tx\nNSpid:\t42\n", 1), ("NSpid:\t42\t7\t1\n", 3), ("NSpid: 42  1\nNStgid:\t42\n", 2),
            ("Name:\tx\n", nil), ("NSpid:\n", nil), ("NSpid:\t\n", nil),
        ] as [(String, Int?)])
    func pidDepth(text: String, expected: Int?) {
        #expect(OwnNamespaces.pidDepth(text) == expected)
    }

    @Test("the start time is found after the last parenthesis, even one inside the command")
    func startTimeAfterTheCommand() {
        let rest = (4...21).map(String.init).joined(separator: " ")
        #expect(PeerInspector.startTime("7 (a) b) (c) S \(rest) 987654 23 24\n") == 987_654)
        #expect(PeerInspector.startTime("7 (x) S \(rest)") == nil)
        #expect(PeerInspector.startTime("7 (x) S \(rest) notanumber 23") == nil)
    }

    @Test("this process's own /proc files: a root mount, a pid depth, a start time")
    func realProc() throws {
        let source = SystemProcessSource()
        let directory = try #require(source.directory(of: getpid()))
        #expect(OwnNamespaces.rootMountID(directory.read("mountinfo")) != nil)
        #expect((OwnNamespaces.pidDepth(directory.read("status")) ?? 0) >= 1)
        let started = try #require(PeerInspector.startTime(directory.read("stat")))
        #expect(started <= source.bootTicks())
    }
}
