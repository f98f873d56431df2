import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SesameEmulator

/// `sesame-emulator-bench`: starts the emulator in-process and measures, over loopback HTTP
/// with many concurrent clients, token refreshes per second and RTDB conditional writes per
/// second. Every loop is bounded by `--duration`; nothing leaves 127.0.0.1.
@main
struct EmulatorBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesame-emulator-bench",
        abstract: "Measures sesame-emulator throughput on loopback (build with -c release).")

    @Option(help: "Seconds each measurement runs.")
    var duration: Double = 3

    @Option(parsing: .upToNextOption, help: "Numbers of concurrent clients to measure with.")
    var concurrency: [Int] = [1, 16, 64]

    func run() async throws {
        let emulator = try await SesameEmulator.start(EmulatorConfiguration(authPort: 0, databasePort: 0))
        let maxClients = concurrency.max() ?? 1
        var poolConfiguration = HTTPClient.Configuration()
        poolConfiguration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maxClients)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: poolConfiguration)
        let bench = Bench(
            client: client, auth: "http://127.0.0.1:\(emulator.authPort)",
            database: "http://127.0.0.1:\(emulator.databasePort)")

        var tokens: [String] = []
        for _ in 0..<maxClients { tokens.append(try await bench.signUpAnonymously()) }
        let refreshTokens = tokens

        print(
            "sesame-emulator-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(duration) s per cell, loopback HTTP/1.1 keep-alive"
        )
        print("")
        print(
            "| clients | token refreshes/s | refresh p50 ms | refresh p99 ms | conditional PUTs/s (own key) | contended increments/s (412 retries) |"
        )
        print(
            "|--------:|------------------:|---------------:|---------------:|-----------------------------:|-------------------------------------:|"
        )
        for clients in concurrency {
            let refresh = try await bench.measure(clients: clients, seconds: duration) { index in
                try await bench.refresh(refreshTokens[index % refreshTokens.count])
            }
            let writes = try await bench.measureConditionalWrites(clients: clients, seconds: duration)
            let contended = try await bench.measureContendedIncrements(clients: clients, seconds: duration)
            print(
                "| \(clients) | \(Int(refresh.rate)) | \(refresh.p50) | \(refresh.p99) | \(Int(writes.rate)) | \(Int(contended)) |"
            )
        }
        try await client.shutdown()
        await emulator.stop()
    }
}

/// One benchmark session: an HTTP client and the emulator's two base URLs.
struct Bench: Sendable {
    let client: HTTPClient
    let auth: String
    let database: String

    struct Result {
        var rate: Double
        var p50: String
        var p99: String
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
    }

    func post(_ url: String, body: String, headers: [(String, String)]) async throws -> (Int, [UInt8], HTTPHeaders) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(string: body))
        return try await send(request)
    }

    func send(_ request: HTTPClientRequest) async throws -> (Int, [UInt8], HTTPHeaders) {
        let response = try await client.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), Array(buffer.readableBytesView), response.headers)
    }

    func signUpAnonymously() async throws -> String {
        let (status, body, _) = try await post(
            "\(auth)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=bench", body: "{}",
            headers: [("Content-Type", "application/json")])
        struct SignUpAnswer: Decodable { var refreshToken: String }
        guard status == 200, let answer = try? JSONDecoder().decode(SignUpAnswer.self, from: Data(body)) else {
            throw BenchError(description: "signUp failed with \(status)")
        }
        return answer.refreshToken
    }

    func refresh(_ refreshToken: String) async throws {
        let (status, _, _) = try await post(
            "\(auth)/securetoken.googleapis.com/v1/token?key=bench",
            body: "grant_type=refresh_token&refresh_token=\(refreshToken)",
            headers: [("Content-Type", "application/x-www-form-urlencoded")])
        guard status == 200 else { throw BenchError(description: "refresh failed with \(status)") }
    }

    /// Runs `operation` from `clients` concurrent loops for `seconds`; returns the rate and latency percentiles.
    func measure(
        clients: Int, seconds: Double, _ operation: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> Result {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        let start = clock.now
        let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for index in 0..<clients {
                group.addTask {
                    var samples: [Duration] = []
                    while clock.now < deadline {
                        let begin = clock.now
                        try await operation(index)
                        samples.append(clock.now - begin)
                    }
                    return samples
                }
            }
            var all: [Duration] = []
            for try await samples in group { all += samples }
            return all.sorted()
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        func percentile(_ p: Double) -> String {
            guard !latencies.isEmpty else { return "-" }
            let d = latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
            let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
            return String(format: "%.2f", ms)
        }
        return Result(rate: Double(latencies.count) / seconds, p50: percentile(0.5), p99: percentile(0.99))
    }

    /// Each client repeatedly replaces its own key with `if-match` set to the ETag of its last write.
    func measureConditionalWrites(clients: Int, seconds: Double) async throws -> Result {
        let run = UUID().uuidString.prefix(8)
        let etags = ETagBox(count: clients)
        return try await measure(clients: clients, seconds: seconds) { index in
            var request = HTTPClientRequest(url: "\(database)/bench-\(run)/client-\(index).json?ns=bench")
            request.method = .PUT
            request.headers.add(name: "if-match", value: etags.get(index))
            request.body = .bytes(ByteBuffer(string: #"{"n":\#(Int.random(in: 0..<1_000_000))}"#))
            let (status, _, headers) = try await send(request)
            guard status == 200, let etag = headers.first(name: "ETag") else {
                throw BenchError(description: "conditional PUT failed with \(status)")
            }
            etags.set(index, etag)
        }
    }

    /// All clients increment one counter: GET with ETag, PUT with if-match, retry on 412.
    /// Returns successful increments per second.
    func measureContendedIncrements(clients: Int, seconds: Double) async throws -> Double {
        let path = "\(database)/bench-counter-\(UUID().uuidString.prefix(8)).json?ns=bench"
        let result = try await measure(clients: clients, seconds: seconds) { _ in
            while true {
                var get = HTTPClientRequest(url: path)
                get.headers.add(name: "X-Firebase-ETag", value: "true")
                let (_, body, headers) = try await send(get)
                let current = Int(String(decoding: body, as: UTF8.self)) ?? 0
                var put = HTTPClientRequest(url: path)
                put.method = .PUT
                put.headers.add(name: "if-match", value: headers.first(name: "ETag") ?? "null_etag")
                put.body = .bytes(ByteBuffer(string: String(current + 1)))
                let (status, _, _) = try await send(put)
                if status == 200 { return }
                guard status == 412 else { throw BenchError(description: "increment failed with \(status)") }
            }
        }
        return result.rate
    }
}

/// Per-client last ETags; each index is touched by one task only.
final class ETagBox: @unchecked Sendable {
    private var etags: [String]
    private let lock = NSLock()

    init(count: Int) { etags = Array(repeating: "null_etag", count: count) }

    func get(_ index: Int) -> String { lock.withLock { etags[index] } }
    func set(_ index: Int, _ value: String) { lock.withLock { etags[index] = value } }
}
