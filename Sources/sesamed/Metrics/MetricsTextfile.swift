import Logging
import ServiceLifecycle
import SesameKeyring
import SesameService

/// Keeps `metrics.textfile_path` up to date for node_exporter's textfile collector: written at
/// start, again at most once per `coalescing` after any change, and at stop. Each write replaces
/// the whole file atomically (a temporary file renamed over it), so the collector never reads half
/// a file. Nothing is written while nothing changes: no timer runs in an idle daemon.
struct MetricsTextfile: Service {
    let path: String
    let metrics: DaemonMetrics
    let events: AsyncStream<SessionEvent>
    var coalescing: Duration = .seconds(1)
    let logger: Logger

    func run() async {
        var failing = write(failing: false)
        await withDiscardingTaskGroup { group in
            let (metrics, events) = (metrics, events)
            group.addTask {
                for await event in events.cancelOnGracefulShutdown() { metrics.observe(event) }
            }
            for await _ in metrics.changes.cancelOnGracefulShutdown() {
                // Changes that come meanwhile are kept as one (the stream holds the newest only).
                try? await Task.sleep(for: coalescing)
                failing = write(failing: failing)
            }
            group.cancelAll()
        }
        _ = write(failing: failing)
    }

    /// Writes the file; says a failure once, until a write succeeds again.
    /// - Returns: whether this write failed.
    private func write(failing: Bool) -> Bool {
        do throws(SystemCallError) {
            try DurableFile.replace(path, with: metrics.render(), mode: 0o644)
            if failing {
                logger.notice("The metrics file is written again", metadata: ["metrics.textfile_path": "\(path)"])
            }
            return false
        } catch {
            if failing { return true }
            logger.warning(
                "Cannot write the metrics file; check metrics.textfile_path and that its directory is writable",
                metadata: ["metrics.textfile_path": "\(path)", "error": "\(error)"])
            return true
        }
    }
}
