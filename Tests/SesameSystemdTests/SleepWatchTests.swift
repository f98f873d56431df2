import Foundation
import SesameTesting
import Synchronization
import Testing

@testable import SesameSystemd

/// ``SleepWatch`` against a private D-Bus (`dbus-daemon --config-file`) with a fake logind that
/// owns `org.freedesktop.login1` and emits `PrepareForSleep`, as logind does.
@Suite("SleepWatch: logind's PrepareForSleep over sd-bus", .serialized, .timeLimit(.minutes(1)))
struct SleepWatchTests {
    @Test(
        "PrepareForSleep(true) then (false) from logind arrive as suspending then resumed",
        .enabled(if: PrivateBus.isAvailable))
    func signalsArrive() async throws {
        let bus = try await PrivateBus.start()
        defer { Task { await bus.stop() } }
        let (watching, watchingContinuation) = AsyncStream.makeStream(of: Void.self)
        let signals = SleepWatch.signals(
            address: bus.address, watching: { watchingContinuation.yield() }, unavailable: { _ in })
        var watched = watching.makeAsyncIterator()
        _ = await watched.next()
        let logind = try FakeLogind(address: bus.address)
        try logind.suspend()
        try logind.resume()
        var iterator = signals.makeAsyncIterator()
        #expect(await iterator.next() == .suspending)
        #expect(await iterator.next() == .resumed)
    }

    @Test("no bus at the address: the stream ends, the reason is given once, nothing throws or hangs")
    func noBus() async throws {
        let reasons = Mutex<[String]>([])
        let signals = SleepWatch.signals(address: "unix:path=/nonexistent/sesame-no-bus") { reason in
            reasons.withLock { $0.append(reason) }
        }
        for await _ in signals { Issue.record("no signal can come without a bus") }
        let given = reasons.withLock { $0 }
        #expect(given.count == 1)
        #expect(given.first?.contains("cannot connect to the bus") == true)
    }
}
