import Logging
import ServiceLifecycle
import SesameSystemd

/// Gives memory back while the daemon is idle (``IdleRelease``): its code pages and malloc's
/// free memory, once no request and no session event came for `delay`. The pages it runs again
/// come back on the next request.
///
/// Armed by activity, never polled while idle: after a release it sleeps with no timer until
/// the next request or session event (`nextActivity`), then checks every `delay` until the
/// daemon is idle again. An idle daemon so costs no wake-up here.
struct IdleMemory: Service {
    let delay: Duration
    /// Requests and session events so far.
    let activity: @Sendable () async -> UInt64
    /// Returns at the next request or session event after the given count of ``activity``
    /// (or at once when it moved already); sets no timer.
    let nextActivity: @Sendable (UInt64) async -> Void
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var policy = IdleRelease()
            while !Task.isCancelled {
                try? await Task.sleep(for: delay)
                if Task.isCancelled { return }
                let count = await activity()
                if policy.shouldRelease(activity: count) {
                    let bytes = IdleRelease.releaseMemory()
                    logger.debug("Idle: gave back the code pages not in use", metadata: ["bytes": "\(bytes)"])
                }
                if policy.isReleased { await nextActivity(count) }
            }
        }
    }
}
