import Foundation
import SesameCore
import Testing

@testable import SesameService

@Suite("SessionHost: child tasks of run()")
struct SessionHostTests {
    @Test("work spawned before run() runs as its child; shutdown cancels a child still running, run() returns")
    func spawnedWorkIsAChildOfRun() async throws {
        let harness = ServiceHarness()
        let service = harness.service
        try await service.start()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let (ended, end) = AsyncStream.makeStream(of: Bool.self)
        await service.spawn { _ in
            start.yield()
            // Waits until its task is cancelled (an AsyncStream that never yields ends then).
            for await _ in AsyncStream<Void> { _ in } {}
            end.yield(Task.isCancelled)
        }
        let loop = Task { await service.run() }
        var startedEvents = started.makeAsyncIterator()
        #expect(await startedEvents.next() != nil)
        await service.shutdown()
        await loop.value
        var endedEvents = ended.makeAsyncIterator()
        #expect(await endedEvents.next() == true)
    }
}
