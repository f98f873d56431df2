import Foundation
import Testing

@testable import SesameSystemd

/// Real socket activation: `systemd-socket-activate` passes a listening socket to this test
/// binary, run again with a filter that selects only ``ActivatedProcessEntry``.
@Suite struct SocketActivationProcessTests {
    static let variable = "SESAME_SYSTEMD_TEST_ACTIVATED"
    static let tool = "/usr/bin/systemd-socket-activate"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: tool)))
    func passedSocketIsFoundAndServes() throws {
        let directory = NSTemporaryDirectory() + "sesame-activate-\(getpid())-\(UInt32.random(in: .min ... .max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/s.sock"

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tool)
        process.arguments = [
            "-l", socketPath, "--fdname=control", "-E", "\(Self.variable)=1",
            try executablePath(), "--testing-library", "swift-testing", "--filter", "ActivatedProcessEntry",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        // The tool binds the socket, then execs the child on the first connection.
        let reply = try connectAndRead(socketPath, timeout: .seconds(30))
        #expect(reply == "count=1 names=control listener=3")
    }

    private func connectAndRead(_ path: String, timeout: Duration) throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected == 0 {
                var seconds = timeval(tv_sec: 30, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
                var reply: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 256)
                while true {
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if count <= 0 { break }
                    reply += buffer[0..<count]
                }
                return String(decoding: reply, as: UTF8.self)
            }
            guard clock.now < deadline else { throw POSIXError(.ETIMEDOUT) }
            usleep(2000)  // the tool has not bound the socket yet
        }
    }
}

/// The activated child: reports what it was passed to the first client, then exits.
@Suite struct ActivatedProcessEntry {
    @Test func reportToFirstClient() {
        let environment = ProcessInfo.processInfo.environment
        guard environment[SocketActivationProcessTests.variable] != nil else { return }
        let activation = SocketActivation(environment: environment)
        let listener = activation.firstUnixStreamListener(named: "control")
        let report =
            "count=\(activation.descriptors.count) names=\(activation.descriptors.map(\.name).joined(separator: ",")) "
            + "listener=\(listener.map(String.init) ?? "none")"
        guard let listener else { return }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        _ = Array(report.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        close(connection)
    }
}

func executablePath() throws -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { throw POSIXError(.ENOENT) }
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
