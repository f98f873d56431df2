import NIOConcurrencyHelpers
import NIOCore

/// A connection's ``IdleTick``s: every `step`, by a timer of its own event loop that ends with
/// it, at multiples of `step` on the loop's clock, so every idle connection of the loop ticks
/// at the same instants: one wake-up a step for all of them, not one each (issue 36, 50 idle
/// subscribers). The first tick comes within one step, as a tick always could.
enum IdleTicker {
    static func start(on channel: any Channel, every step: TimeAmount) {
        let pending = NIOLockedValueBox<Scheduled<Void>?>(nil)
        schedule(on: channel, every: step, pending: pending)
        channel.closeFuture.whenComplete { _ in pending.withLockedValue { $0?.cancel() } }
    }

    private static func schedule(
        on channel: any Channel, every step: TimeAmount, pending: NIOLockedValueBox<Scheduled<Void>?>
    ) {
        let interval = UInt64(max(1, step.nanoseconds))
        let next = (NIODeadline.now().uptimeNanoseconds / interval + 1) * interval
        let task = channel.eventLoop.scheduleTask(deadline: .uptimeNanoseconds(next)) {
            guard channel.isActive else { return }
            channel.pipeline.fireUserInboundEventTriggered(IdleTick())
            schedule(on: channel, every: step, pending: pending)
        }
        pending.withLockedValue { $0 = task }
    }
}
