import NIOConcurrencyHelpers

@testable import SesameSocketServer

/// A `/proc` made of tables: each pid's files, links and file identities, and a clock. A file
/// may change after a number of reads (a process that exits and whose pid is taken while the
/// daemon reads it).
final class FakeProcessSource: ProcessSource, Sendable {
    struct Process: Sendable {
        var files: [String: String] = [:]
        var links: [String: String] = [:]
        var identities: [String: FileIdentity] = [:]
        /// `stat` after its first read: another process took the pid.
        var statAfterFirstRead: String? = nil
    }

    private let processes: NIOLockedValueBox<[Int32: Process]>
    let now: UInt64

    init(_ processes: [Int32: Process], now: UInt64 = 1_000) {
        self.processes = NIOLockedValueBox(processes)
        self.now = now
    }

    func directory(of pid: Int32) -> (any ProcessDirectory)? {
        processes.withLockedValue { $0[pid] } == nil ? nil : Directory(source: self, pid: pid)
    }

    func bootTicks() -> UInt64 { now }

    /// `stat` text of a process that started at `ticks`.
    static func stat(startedAt ticks: UInt64) -> String {
        "42 (a (b) c) S 1 42 42 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 \(ticks) 1000 100 18446744073709551615\n"
    }

    final class Directory: ProcessDirectory {
        let source: FakeProcessSource
        let pid: Int32

        init(source: FakeProcessSource, pid: Int32) {
            self.source = source
            self.pid = pid
        }

        func read(_ name: String) -> String? {
            source.processes.withLockedValue { processes in
                guard var process = processes[pid] else { return nil }
                let text = process.files[name]
                if name == "stat", let next = process.statAfterFirstRead {
                    process.files["stat"] = next
                    process.statAfterFirstRead = nil
                    processes[pid] = process
                }
                return text
            }
        }

        func readLink(_ name: String) -> String? { source.processes.withLockedValue { $0[pid]?.links[name] } }
        func identity(_ name: String) -> FileIdentity? {
            source.processes.withLockedValue { $0[pid]?.identities[name] }
        }
    }
}
