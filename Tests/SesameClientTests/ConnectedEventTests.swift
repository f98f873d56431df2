import Foundation
import SesameLocalAPI
import SesameTesting
import Synchronization
import Testing

@testable import SesameClient

/// `connected` on ``SesameClient/notifications`` means "subscribed": a tool that waits for it
/// (`sesamectl watch`, a test) misses no later event.
@Suite("The connected event")
struct ConnectedEventTests {
    @Test func connectedComesOnlyOnceTheSubscriptionIsAnswered() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("subscribe") { _ in .hold }
        let events = Mutex<[String]>([])
        let reader = Task {
            for try await notification in client.notifications {
                let name: String
                switch notification.event {
                case .connected: name = "connected"
                case .authStateChanged(_, _, let reason): name = reason.rawValue
                default: name = "other"
                }
                events.withLock { $0.append(name) }
            }
        }
        await daemon.waitForRequest("subscribe")
        try await Task.sleep(for: .milliseconds(200))
        #expect(events.withLock { $0 }.isEmpty, "connected before the subscription was answered")

        let state = await daemon.stateJSON
        await daemon.answerHeld(method: "subscribe", with: .result(["subscription": 1, "state": state]))
        try await eventually("connected", timeout: .seconds(5)) { events.withLock { $0 } == ["connected"] }
        reader.cancel()
        await client.close()
        await daemon.stop()
    }
}
