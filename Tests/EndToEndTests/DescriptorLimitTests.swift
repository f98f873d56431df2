import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `max_connections` against the open-files limit (issue #25): with a limit of 300 files the
/// daemon keeps its reserve, so clients beyond get `too-many-connections` instead of hanging,
/// and it can still write its keyring.
@Suite("sesamed keeps descriptors for itself", .serialized, .timeLimit(.minutes(2)))
struct DescriptorLimitTests {
    @Test(
        "at 300 open files: max_connections 1024 becomes 172 with a warning; 300 clients each get an answer or too-many-connections; the keyring is still written"
    )
    func lowLimit() async throws {
        // Writing to a connection the daemon refused and closed must fail with EPIPE, not kill the run.
        signal(SIGPIPE, SIG_IGN)
        let emulator = try await EmulatorProcess.start()
        let directory = try makeTemporaryDirectory("nf")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var toml = "[socket]\npath = \"\(directory)/s.sock\"\nmax_connections = 1024\n"
        for (section, keys) in DaemonProcess.backendSettings(emulator) {
            toml += "[\(section)]\n" + keys.map { "\($0.key) = \($0.value)\n" }.joined()
        }
        try toml.write(toFile: directory + "/sesamed.toml", atomically: true, encoding: .utf8)
        let daemon = try await ChildProcess(
            "/usr/bin/prlimit",
            [
                "--nofile=300:300", "--", BuiltBinaries.path("sesamed"), "--config", directory + "/sesamed.toml",
                "--state-dir", directory + "/state",
            ], logPrefix: directory + "/sesamed")
        let socket = directory + "/s.sock"
        do {
            try await eventually("the daemon serves its guest") {
                let state = try? await onOwnThread {
                    try rawCall(socket, #"{"jsonrpc":"2.0","id":1,"method":"getState"}"#)
                }
                return state?["result"]?["status"] == "anonymous"
            }
            let log = try String(contentsOfFile: directory + "/sesamed.err", encoding: .utf8)
            #expect(log.contains("Fewer connections than socket.max_connections"))
            let (answered, refused) = try await onOwnThread { () throws -> ([RawConnection], Int) in
                var answered: [RawConnection] = []
                var refused = 0
                for id in 0..<300 {
                    let connection = try RawConnection(path: socket)
                    // A refused connection may be closed before the request is written (EPIPE):
                    // its line is read all the same.
                    try? connection.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"hello"}"#)
                    let line = try connection.readLine(timeout: 10)
                    if line["error"]?["data"]?["reason"] == "too-many-connections" {
                        refused += 1
                        connection.close()
                    } else {
                        answered.append(connection)
                    }
                }
                return (answered, refused)
            }
            #expect(answered.count == 300 - 128)
            #expect(refused == 128)
            // One slot free again: a forced refresh reaches the backend and writes the keyring
            // (no EMFILE) while 171 clients stay connected.
            answered[0].close()
            var last: JSONValue?
            try await eventually("a slot is free and the refresh is answered") {
                last = try? await onOwnThread {
                    try rawCall(
                        socket, #"{"jsonrpc":"2.0","id":2,"method":"getIdToken","params":{"forceRefresh":true}}"#)
                }
                return last?["error"]?["data"]?["reason"] != "too-many-connections"
            }
            #expect(last?["result"]?["token"]?.stringValue != nil, "\(String(describing: last))")
            for connection in answered.dropFirst() { connection.close() }
            #expect(
                !(try String(contentsOfFile: directory + "/sesamed.err", encoding: .utf8)).contains(
                    "Too many open files"))
        } catch {
            daemon.signal(SIGKILL)
            await emulator.stop()
            throw error
        }
        daemon.signal(SIGTERM)
        _ = try await daemon.waitForExit()
        await emulator.stop()
    }

    @Test(
        "out of descriptors, accept() fails: sesamed says so, does not spin, and accepts the waiting clients once files are free"
    )
    func acceptFailsWithEMFILE() async throws {
        signal(SIGPIPE, SIG_IGN)
        try await withEmulatorAndDaemon { _, daemon in
            let pid = daemon.child.pid
            // Lower the running daemon's limit: its max_connections (1,024) no longer fits.
            let lowered = try await runCommand("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=64:64"])
            #expect(lowered.status == 0, "\(lowered.stderr)")
            let socket = daemon.socketPath
            let connections = try await onOwnThread { () throws -> [RawConnection] in
                try (0..<80).map { id in
                    let connection = try RawConnection(path: socket)
                    try connection.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"hello"}"#)
                    return connection
                }
            }
            try await eventually("the daemon says it cannot accept") {
                daemon.log.contains("Cannot accept connections; trying again in a second")
            }
            // Backing off, not retrying in a loop (which takes a whole core): less than 1.5 s of CPU in 2 s.
            let before = try SocketLimitsTests.cpuTicks(pid)
            try await Task.sleep(for: .seconds(2))
            let spent = try SocketLimitsTests.cpuTicks(pid) - before
            #expect(spent < 150, "\(spent) ticks; log: \(daemon.log.suffix(3000))")
            // Those answered hold the files; closed, the others are accepted and answered.
            let waiting = try await onOwnThread { () -> [RawConnection] in
                connections.filter { connection in
                    if (try? connection.readLine(timeout: 0)) != nil {
                        connection.close()
                        return false
                    }
                    return true
                }
            }
            #expect(!waiting.isEmpty)
            let answered = try await onOwnThread {
                waiting.filter { (try? $0.readLine(timeout: 10))?["result"] != nil }.count
            }
            #expect(answered == waiting.count)
            for connection in waiting { connection.close() }
        }
    }
}
