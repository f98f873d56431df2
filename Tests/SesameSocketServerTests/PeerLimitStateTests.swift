import Foundation
import Testing

@testable import SesameSocketServer

@Suite("Limits per peer, as pure state")
struct PeerLimitStateTests {
    @Test("slots: each uid gets its share; others share all but the reserve; exempt uids take the reserve")
    func slots() {
        var slots = ConnectionSlots(maximum: 8, perUid: 3, exempt: [0], reserve: 2)
        for _ in 0..<3 { #expect(slots.admit(1000) == nil) }
        #expect(slots.admit(1000) == .uidShare)
        for _ in 0..<3 { #expect(slots.admit(1001) == nil) }
        // 6 taken = 8 - reserve: nobody but root now.
        #expect(slots.admit(1002) == .full)
        #expect(slots.admit(0) == nil)
        #expect(slots.admit(0) == nil)
        #expect(slots.admit(0) == .full)
        slots.release(1000)
        #expect(slots.held(by: 1000) == 2)
        #expect(slots.admit(1002) == .full)
        slots.release(0)
        slots.release(0)
        #expect(slots.admit(1002) == nil)
        #expect(slots.total == 6)
    }

    @Test("the default reserve is 1/16 of the maximum, and never every slot")
    func defaultReserve() {
        #expect(ConnectionSlots(maximum: 1024, perUid: 256, exempt: []).reserve == 64)
        #expect(ConnectionSlots(maximum: 1, perUid: 1, exempt: [], reserve: 5).reserve == 0)
    }

    @Test("log lines of a kind: 10 a minute, then one that says how many were suppressed")
    func logThrottle() {
        var throttle = LogThrottle(linesPerWindow: 10, window: 60)
        let start = Date(timeIntervalSince1970: 1_000_000)
        var logged = 0
        for i in 0..<1000 {
            if case .log = throttle.decide(.tooManyConnections, at: start + Double(i) * 0.01) { logged += 1 }
        }
        #expect(logged == 10)
        // Another kind has its own count.
        #expect(throttle.decide(.lineTooLarge, at: start + 1) == .log(suppressed: 0))
        #expect(throttle.decide(.tooManyConnections, at: start + 59) == .suppress)
        #expect(throttle.decide(.tooManyConnections, at: start + 60) == .log(suppressed: 991))
        #expect(throttle.decide(.tooManyConnections, at: start + 61) == .log(suppressed: 0))
    }

    @Test("a uid forces one refresh per interval; other uids are not affected")
    func forcedRefreshes() {
        var limiter = ForcedRefreshLimiter(interval: 10)
        let start = Date(timeIntervalSince1970: 1_000_000)
        var allowed = 0
        for i in 0..<200 where limiter.allow(1000, at: start + Double(i) * 0.01) { allowed += 1 }
        #expect(allowed == 1)
        let other = limiter.allow(1001, at: start + 1)
        let tooSoon = limiter.allow(1000, at: start + 9.9)
        let later = limiter.allow(1000, at: start + 10)
        #expect(other)
        #expect(!tooSoon)
        #expect(later)
    }

    @Test("the open-files limit lowers max_connections to leave the reserve")
    func descriptorBudget() {
        #expect(DescriptorBudget(limit: 8192, configured: 1024).effectiveMaximum == 1024)
        #expect(!DescriptorBudget(limit: 8192, configured: 1024).isLowered)
        let tight = DescriptorBudget(limit: 1024, configured: 1024)
        #expect(tight.effectiveMaximum == 1024 - DescriptorBudget.reserve)
        #expect(tight.isLowered)
        #expect(DescriptorBudget(limit: 10, configured: 1024).effectiveMaximum == 1)
        #expect(DescriptorBudget.raiseSoftLimit() >= 1)
    }
}
