import Logging
import ServiceLifecycle
import SesameSystemd

/// Gives memory back while the daemon is idle (``IdleRelease``): its code pages and malloc's
/// free memory, once no request and no session event came for `delay`. The pages it runs again
/// come back on the next request.
struct IdleMemory: Service {
    let delay: Duration
    /// Requests and session events so far.
    let activity: @Sendable () async -> UInt64
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var policy = IdleRelease()
            while !Task.isCancelled {
                try? await Task.sleep(for: delay)
                if Task.isCancelled { return }
                if policy.shouldRelease(activity: await activity()) {
                    let bytes = IdleRelease.releaseMemory()
                    logger.debug("Idle: gave back the code pages not in use", metadata: ["bytes": "\(bytes)"])
                }
            }
        }
    }
}
