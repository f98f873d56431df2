import SesameLocalAPI
import Testing

@testable import SesameClient

@Suite("Subscription: one per connection, replaced without a gap")
struct SubscriptionTests {
    static let hello = SesameHello(
        server: "sesamed", version: "1", protocolVersion: 1, instance: "i1", role: .manager, peerUid: 0, peerGid: 0,
        peerPid: 1)

    @Test func nothingIsAskedBeforeTheHelloIsAnswered() {
        var subscription = Subscription()
        #expect(subscription.update(to: .normal) == nil)
        subscription.greeted(Self.hello)
        #expect(subscription.update(to: .normal) == .subscribe(.normal, params: [:]))
    }

    @Test func oneSubscribeAtATime() {
        var subscription = Subscription()
        subscription.greeted(nil)
        #expect(subscription.update(to: .normal) != nil)
        #expect(subscription.update(to: .migrator) == nil)
        let confirmed = subscription.subscribed(.normal, id: "s1")
        #expect(confirmed.drop == nil)
        #expect(confirmed.isFirst)
        #expect(subscription.update(to: .normal) == nil)
    }

    @Test func aMigratorSubscribesToEveryEventThenTheOldSubscriptionIsDropped() {
        var subscription = Subscription()
        subscription.greeted(Self.hello)
        _ = subscription.update(to: .normal)
        _ = subscription.subscribed(.normal, id: "s1")
        let events = JSONValue.array(LocalAPIEvent.allCases.map { .string($0.rawValue) })
        #expect(
            subscription.update(to: .migrator) == .subscribe(.migrator, params: ["migrator": true, "events": events]))
        // The old one is dropped only once the new one is confirmed.
        let confirmed = subscription.subscribed(.migrator, id: "s2")
        #expect(confirmed.drop == "s1")
        #expect(!confirmed.isFirst)
        #expect(subscription.current?.mode == .migrator)
    }

    @Test func noConsumerLeftUnsubscribes() {
        var subscription = Subscription()
        subscription.greeted(Self.hello)
        _ = subscription.update(to: .normal)
        _ = subscription.subscribed(.normal, id: "s1")
        #expect(subscription.update(to: .none) == .unsubscribe(id: "s1"))
        #expect(subscription.current == nil)
        #expect(subscription.update(to: .none) == nil)
    }

    @Test func aRefusedSubscribeMayBeAskedAgain() {
        var subscription = Subscription()
        subscription.greeted(Self.hello)
        _ = subscription.update(to: .migrator)
        subscription.refused()
        #expect(subscription.update(to: .normal) == .subscribe(.normal, params: [:]))
    }

    @Test func aLostConnectionWaitsForTheNextHello() {
        var subscription = Subscription()
        subscription.greeted(Self.hello)
        _ = subscription.update(to: .normal)
        _ = subscription.subscribed(.normal, id: "s1")
        subscription.connectionLost()
        #expect(subscription.current == nil)
        #expect(subscription.update(to: .normal) == nil)
        subscription.greeted(Self.hello)
        #expect(subscription.update(to: .normal) == .subscribe(.normal, params: [:]))
    }

    @Test func rawNotificationsAreGivenOncePerInstance() {
        var subscription = Subscription()
        subscription.greeted(Self.hello)
        let first = [5, 5, 4, 6].map { subscription.isNewRaw($0) }
        #expect(first == [true, false, false, true])
        // The same instance again (a reconnection): still no duplicates.
        subscription.connectionLost()
        subscription.greeted(Self.hello)
        let again = subscription.isNewRaw(6)
        #expect(!again)
        // A restarted daemon starts its sequence over.
        subscription.connectionLost()
        var restarted = Self.hello
        restarted.instance = "i2"
        subscription.greeted(restarted)
        let restart = subscription.isNewRaw(1)
        #expect(restart)
    }
}
