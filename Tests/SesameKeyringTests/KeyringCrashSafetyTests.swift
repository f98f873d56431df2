import Foundation
import SesameCore
import Testing

@testable import SesameKeyring

/// `save` is atomic and durable: a writer killed at any moment leaves a whole keyring.
@Suite struct KeyringCrashSafetyTests {
    static let rounds = 50

    @Test func writerKilledAtRandomMomentsAlwaysLeavesAReadableKeyring() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.keyringPath
        let seed = try EncryptedFileSessionStore.open(path: path, environment: [:])
        try await seed.save(Fixtures.tagged("initial"))
        await seed.close()

        var previous = "initial"
        var changes = 0
        var killedMidWrite = 0
        var round = 0
        // At least `rounds` kills, and more (up to 3×) until one has hit a write in progress.
        while round < Self.rounds || (killedMidWrite == 0 && round < 3 * Self.rounds) {
            defer { round += 1 }
            let writer = try await WriterProcess.start(keyringPath: path)
            let replaced = try await writer.awaitReplacement(of: path, from: WriterProcess.inode(path))
            if replaced {
                // Let it run on for up to 4 ms (a few writes), then kill it mid-flight.
                try await Task.sleep(for: .microseconds(Int.random(in: 0...4000)))
            }
            try await writer.kill()
            #expect(replaced, "round \(round): the writer never wrote")
            if TemporaryDirectory.siblings(of: path).contains(where: { $0.contains(".tmp-") }) { killedMidWrite += 1 }

            let store = try EncryptedFileSessionStore.open(path: path, environment: [:])
            let state = try await store.load()
            await store.close()
            let tag = try #require(state?.emailLinkAddress, "round \(round): no state")
            #expect(tag.hasPrefix(WriterProcess.tag) || tag == previous, "round \(round): unexpected \(tag.prefix(40))")
            if tag != previous { changes += 1 }
            previous = tag
            let leftovers = TemporaryDirectory.siblings(of: path).filter { $0.contains(".tmp-") }
            #expect(leftovers.isEmpty, "round \(round): leftovers \(leftovers)")
        }
        #expect(changes > 0)
        // The test proves something only if some kills hit a write in progress.
        #expect(killedMidWrite > 0)
        print("keyring crash test: \(round) kills, \(killedMidWrite) during a write, \(changes) changes seen")
    }
}
