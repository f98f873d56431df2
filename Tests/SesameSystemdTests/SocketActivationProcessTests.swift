import Foundation
import SesameTesting
import Testing

@testable import SesameSystemd

/// Real socket activation: `systemd-socket-activate` passes a listening socket to this test
/// binary, run again with a filter that selects only ``ActivatedProcessEntry``.
@Suite struct SocketActivationProcessTests {
    static let variable = "SESAME_SYSTEMD_TEST_ACTIVATED"
    static let tool = "/usr/bin/systemd-socket-activate"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: tool)))
    func passedSocketIsFoundAndServes() async throws {
        let directory = NSTemporaryDirectory() + "sesame-activate-\(getpid())-\(UInt32.random(in: .min ... .max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/s.sock"

        let process = try await SpawnedProcess.launch(
            Self.tool,
            [
                "-l", socketPath, "--fdname=control", "-E", "\(Self.variable)=1",
                try executablePath(), "--testing-library", "swift-testing", "--filter", "ActivatedProcessEntry",
            ], environment: SpawnedProcess.environment())
        do {
            try await Self.expectReport(socketPath: socketPath)
        } catch {
            if process.isRunning { process.signal(SIGKILL) }
            try await waitForExit(of: process)
            throw error
        }
        if process.isRunning { process.signal(SIGKILL) }
        try await waitForExit(of: process)
    }

    private static func expectReport(socketPath: String) async throws {
        // The tool binds the socket, then execs the child on the first connection.
        var connected: RawConnection?
        try await eventually("systemd-socket-activate listens", timeout: .seconds(30)) {
            connected = try RawConnection(path: socketPath)
            return true
        }
        let connection = try #require(connected)
        let reply = try await onOwnThread {
            var bytes: [UInt8] = []
            while case let chunk = try connection.readSome(), !chunk.isEmpty { bytes += chunk }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(reply == "count=1 names=control listener=3")
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
