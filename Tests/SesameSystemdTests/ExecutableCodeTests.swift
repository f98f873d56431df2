import Foundation
import Testing

@testable import SesameSystemd

@Suite("Releasing the executable's start-up code pages")
struct ExecutableCodeTests {
    static let smaps = """
        55d0a0000000-55d0a1000000 r-xp 00000000 fe:00 42                         /usr/sbin/sesamed
        Size:              16384 kB
        Rss:                9984 kB
        Anonymous:             0 kB
        VmFlags: rd ex mr mw me dw sd
        55d0a1000000-55d0a1100000 r--p 01000000 fe:00 42                         /usr/sbin/sesamed
        Rss:                 568 kB
        Anonymous:           568 kB
        55d0a1100000-55d0a1200000 rw-p 01100000 fe:00 42                         /usr/sbin/sesamed
        Rss:                1132 kB
        Anonymous:          1132 kB
        7f0000000000-7f0000100000 r-xp 00000000 fe:00 7                          /usr/lib/libc.so.6
        Rss:                 600 kB
        Anonymous:             0 kB
        7f0000200000-7f0000300000 r-xp 00000000 fe:00 43                         /usr/sbin/sesamed (deleted)
        Rss:                 100 kB
        Anonymous:             0 kB
        7f0000400000-7f0000500000 r-xp 00000000 fe:00 42                         /usr/sbin/sesamed
        Rss:                 100 kB
        Anonymous:             4 kB
        7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]
        Rss:                  12 kB
        Anonymous:            12 kB
        """

    @Test(
        "only the executable's code mapping with no page of its own is released: not data, relro, libraries or a written page"
    )
    func choosesOnlyCleanCode() {
        let mappings = ExecutableCode.Mapping.parse(Self.smaps)
        #expect(mappings.count == 7)
        #expect(mappings[0].start == 0x55d0_a000_0000 && mappings[0].end == 0x55d0_a100_0000)
        #expect(mappings[0].residentKiB == 9984)
        #expect(mappings[5].anonymousKiB == 4)
        #expect(mappings[4].path == "/usr/sbin/sesamed (deleted)")
        let chosen = mappings.filter { $0.isReleasableCode(of: "/usr/sbin/sesamed") }
        #expect(chosen == [mappings[0]])
    }

    @Test("released in this very process: the code keeps running, and what it no longer runs is not resident")
    func releasesAndRuns() throws {
        let before = try Self.residentCodeKiB()
        let release = ExecutableCode.releaseUnused()
        guard before > 0 else {
            // No eligible mapping in this process (a sanitizer's runtime or a debugger wrote to
            // the code): then nothing may be released either.
            #expect(release.residentBytes == 0)
            return
        }
        #expect(release.mappings >= 1)
        #expect(release.residentBytes > 0)
        // Still running the released code: a call through the test binary and back.
        let again = ExecutableCode.Mapping.parse(Self.smaps).count
        #expect(again == 7)
        let after = try Self.residentCodeKiB()
        #expect(after < before)
    }

    /// Resident KiB of this test binary's code mapping(s).
    static func residentCodeKiB() throws -> Int {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        // Read to the end: /proc files have no size, and a sanitizer's mappings make this one long.
        let text = String(
            decoding: try FileHandle(forReadingAtPath: "/proc/self/smaps")?.readToEnd() ?? Data(), as: UTF8.self)
        return ExecutableCode.Mapping.parse(text).filter { $0.isReleasableCode(of: executable) }
            .reduce(0) { $0 + $1.residentKiB }
    }
}

@Suite("When an idle daemon gives memory back")
struct IdleReleaseTests {
    @Test(
        "once per idle interval: not while busy, once after a whole interval without activity, again only after new activity",
        arguments: [
            ([UInt64](), [Bool]()),
            ([0, 0, 0, 0], [false, true, false, false]),
            ([0, 1, 2, 3], [false, false, false, false]),
            ([5, 5, 6, 6, 6, 7, 7], [false, true, false, true, false, false, true]),
        ])
    func policy(activity: [UInt64], expected: [Bool]) {
        var policy = IdleRelease()
        #expect(activity.map { policy.shouldRelease(activity: $0) } == expected)
    }
}
