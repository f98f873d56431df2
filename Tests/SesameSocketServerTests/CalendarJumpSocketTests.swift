import Foundation
import SesameCore
import SesameLocalAPI
import SesameService
import SesameTesting
import Testing

@testable import SesameSocketServer

/// Issue 36, item 4: after the calendar jumps, what the socket answers from the published
/// session (the fast path) and what the service answers show the token's dates on the calendar,
/// and the token is the same one: nothing was refreshed for a jump.
@Suite("The calendar jumps: answers over a real Unix socket", .timeLimit(.minutes(1)))
struct CalendarJumpSocketTests {
    @Test("2 h ahead: getIdToken, getState and subscribe show the held token's dates 2 h later; no refresh")
    func forward() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            let before = try #require(try await client.call("getIdToken", id: 1)["result"])
            let refreshes = await harness.provider.count("refresh")
            let expiresAt = try #require(before["expiresAt"]?.stringValue.flatMap(WireTime.parse))
            let issuedAt = try #require(before["issuedAt"]?.stringValue.flatMap(WireTime.parse))

            // The calendar is set; the daemon hears it from the kernel (CalendarWatch) and tells
            // the server, as here. Until then the answers keep the dates they were made with.
            harness.clock.jumpCalendar(seconds: 7200)
            let unchanged = try #require(try await client.call("getIdToken", id: 6)["result"])
            #expect(unchanged == before)
            harness.server.calendarChanged()
            let later = WireTime.string(expiresAt.addingTimeInterval(7200))
            let after = try #require(try await client.call("getIdToken", id: 2)["result"])
            #expect(after["token"] == before["token"])
            #expect(after["expiresAt"] == .string(later))
            #expect(after["issuedAt"] == .string(WireTime.string(issuedAt.addingTimeInterval(7200))))
            // The service's own answer (a validity only it decides) shows the same dates.
            let asked = try #require(
                try await client.call("getIdToken", id: 3, params: ["minValidity": .number(3000)])["result"])
            #expect(asked == after)
            #expect(await harness.provider.count("refresh") == refreshes)

            let state = try #require(try await client.call("getState", id: 4)["result"])
            #expect(state["token"]?["expiresAt"] == .string(later))
            let subscribed = try #require(try await client.call("subscribe", id: 5)["result"])
            #expect(subscribed["state"]?["token"]?["expiresAt"] == .string(later))

            // Told once the service hears of the jump: the same token, its expiry on the calendar.
            await harness.service.calendarChanged()
            var told = try await client.receive()
            while told["method"] != .string("idTokenChanged") { told = try await client.receive() }
            #expect(told["params"]?["expiresAt"] == .string(later))
        }
    }
}
