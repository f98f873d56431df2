import NIOCore
import NIOPosix
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// Runs Swift concurrency on the daemon's one event loop instead of libdispatch's pool.
///
/// On Linux, libdispatch's pool of worker threads comes with a monitor that wakes once a second
/// for as long as the process lives (`_dispatch_workq_monitor_pools`), whether or not there is
/// work: 60 wake-ups a minute of an idle daemon, more than the whole budget of issue 36. With
/// every job, and every sleep's timer, on the event loop (whose `epoll_wait` sleeps until a
/// descriptor or a timer is ready), no dispatch worker ever starts and an idle daemon sleeps.
/// The daemon's work is small and already mostly on that loop (one loop answers ~190,000
/// requests a second, docs/BENCHMARKS.md); a job now runs where its I/O is.
///
/// The runtime's executor factory (`_createExecutors`, Swift 6.3's custom global executors)
/// gets ``LoopTaskExecutor`` as the default executor; the main executor stays the platform's.
enum EventLoopConcurrency {
    /// Installs the loop as the default executor; call first thing, once, on the main actor
    /// before any task is started.
    static func install() {
        _createExecutors(factory: LoopExecutorFactory.self)
    }
}

struct LoopExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { PlatformExecutorFactory.mainExecutor }
    static var defaultExecutor: any TaskExecutor { LoopTaskExecutor.shared }
}

/// Jobs run on the one event loop of ``MultiThreadedEventLoopGroup/singleton``; a sleep is a
/// timer of that loop. A sleep on the continuous clock becomes a timer on the monotonic clock:
/// across a suspend it fires late by the time asleep; the daemon's work that must not wait (the
/// refresh) is woken at resume by logind's signal.
final class LoopTaskExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    static let shared = LoopTaskExecutor()

    private var loop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        let job = UnownedJob(job)
        let wait = (delay as? Duration).map { TimeAmount($0) } ?? .zero
        loop.scheduleTask(in: wait) { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        enqueue(job, after: clock.now.duration(to: instant), tolerance: tolerance, clock: clock)
    }
}
