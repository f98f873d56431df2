import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Measures the daemon's request latency and throughput over its real Unix socket, against a
/// baseline measured in the same run: a minimal echo server (one thread per connection,
/// blocking reads) that answers each line with a line of the same size, which is the floor of
/// what any line-delimited Unix-socket service can do on this machine.
@main
struct SesameBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesame-bench",
        abstract: "Benchmarks sesamed's local API against an echo-server baseline (see docs/BENCHMARKS.md).")

    @Option(help: "Directory with the built sesamed and sesame-emulator (use a release build).")
    var binDir: String = ".build/release"

    @Option(help: "Requests per client in each measurement.")
    var requests: Int = 5000

    @Option(help: "Concurrent clients for the throughput measurement.")
    var clients: Int = 16

    func run() throws {
        let work = "/tmp/sesame-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        let emulator = try Launched.start(binDir + "/sesame-emulator", ["--auth-port", "0", "--database-port", "0"], log: work + "/emu")
        defer { emulator.stop() }
        let ports = try emulator.waitForLines(containing: "listening", count: 2).compactMap { $0.split(separator: ":").last.flatMap { Int($0) } }
        try """
            [firebase]
            api_key = "bench"
            project_id = "demo-project"
            auth_emulator_host = "127.0.0.1:\(ports[0])"
            [socket]
            path = "\(work)/d.sock"
            """.write(toFile: work + "/d.toml", atomically: true, encoding: .utf8)
        let daemon = try Launched.start(
            binDir + "/sesamed", ["--config", work + "/d.toml", "--state-dir", work + "/state", "--log-level", "warning"],
            log: work + "/daemon")
        defer { daemon.stop() }
        try waitForAnonymous(socket: work + "/d.sock")

        let echo = try EchoServer(path: work + "/echo.sock")
        let getIdToken = #"{"jsonrpc":"2.0","id":1,"method":"getIdToken","params":{"minValidity":60}}"#
        let getState = #"{"jsonrpc":"2.0","id":1,"method":"getState"}"#
        // The baseline answers with a line as long as the daemon's getIdToken answer.
        let sample = try LineConnection(path: work + "/d.sock").roundTrip(getIdToken)
        echo.replyLength = sample.utf8.count

        print("sesame-bench: \(requests) requests per client; \(clients) clients for throughput; \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("")
        print("| server | request | 1 client p50 / p99 | 1 client req/s | \(clients) clients p50 / p99 | \(clients) clients req/s |")
        print("|---|---|---|---|---|---|")
        for (name, path, line) in [
            ("echo baseline", work + "/echo.sock", getIdToken),
            ("sesamed", work + "/d.sock", getIdToken),
            ("sesamed", work + "/d.sock", getState),
        ] {
            let single = try measure(path: path, line: line, clients: 1)
            let many = try measure(path: path, line: line, clients: clients)
            let method = line.contains("getState") ? "getState" : "getIdToken (cached)"
            print("| \(name) | \(name == "echo baseline" ? "same-size line" : method) | \(single.latencies) | \(single.rate) | \(many.latencies) | \(many.rate) |")
        }
    }

    struct Result {
        var p50: Double
        var p99: Double
        var perSecond: Double
        var latencies: String { String(format: "%.0f / %.0f µs", p50, p99) }
        var rate: String { String(format: "%.0f", perSecond) }
    }

    /// Each client sends a request, waits for the answer, and repeats (after a warm-up).
    func measure(path: String, line: String, clients: Int) throws -> Result {
        let collected = Collected()
        let group = DispatchGroup()
        let requests = self.requests
        let start = DispatchTime.now()
        for _ in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let connection = try LineConnection(path: path)
                    for _ in 0..<200 { _ = try connection.roundTrip(line) }
                    var local: [Double] = []
                    local.reserveCapacity(requests)
                    for _ in 0..<requests {
                        let t0 = DispatchTime.now().uptimeNanoseconds
                        _ = try connection.roundTrip(line)
                        local.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
                    }
                    collected.add(local)
                } catch {
                    collected.fail(error)
                }
            }
        }
        group.wait()
        if let failure = collected.failure { throw failure }
        var samples = collected.samples
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        samples.sort()
        let total = Double(clients * (requests + 200))
        return Result(
            p50: samples[samples.count / 2], p99: samples[Int(Double(samples.count) * 0.99)],
            perSecond: total / elapsed)
    }

    func waitForAnonymous(socket: String) throws {
        for _ in 0..<300 {
            if let connection = try? LineConnection(path: socket),
                let answer = try? connection.roundTrip(#"{"jsonrpc":"2.0","id":1,"method":"getState"}"#),
                answer.contains("\"anonymous\"")
            {
                return
            }
            usleep(50_000)
        }
        throw ValidationError("sesamed did not become ready")
    }
}

/// Latency samples gathered from many threads.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var storedSamples: [Double] = []
    private var storedFailure: (any Error)?

    func add(_ samples: [Double]) { lock.withLock { storedSamples += samples } }
    func fail(_ error: any Error) { lock.withLock { storedFailure = error } }
    var samples: [Double] { lock.withLock { storedSamples } }
    var failure: (any Error)? { lock.withLock { storedFailure } }
}
