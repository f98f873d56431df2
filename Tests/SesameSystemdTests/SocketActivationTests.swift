import Foundation
import Testing

@testable import SesameSystemd

@Suite struct SocketActivationTests {
    @Test func findsTheListeningUnixStreamSocket() throws {
        let directory = NSTemporaryDirectory() + "sesame-activation-\(getpid())-\(UInt32.random(in: .min ... .max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Two passed descriptors at a free, consecutive pair of numbers: a datagram socket,
        // then a listening stream socket.
        let first = try freeDescriptorPair()
        let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let stream = try listeningSocket(at: directory + "/s.sock")
        #expect(dup2(datagram, first) == first)
        #expect(dup2(stream, first + 1) == first + 1)
        close(datagram)
        close(stream)
        defer {
            close(first)
            close(first + 1)
        }

        let environment = ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "events:control"]
        let activation = SocketActivation(environment: environment, processID: getpid(), firstDescriptor: first)
        #expect(activation.descriptors.map(\.name) == ["events", "control"])
        #expect(activation.descriptors.map(\.fd) == [first, first + 1])
        #expect(activation.firstUnixStreamListener() == first + 1)
        #expect(activation.firstUnixStreamListener(named: "control") == first + 1)
        #expect(activation.firstUnixStreamListener(named: "events") == nil)
        #expect(fcntl(first + 1, F_GETFD) & FD_CLOEXEC != 0)

        let unnamed = SocketActivation(
            environment: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "2"], processID: getpid(), firstDescriptor: first)
        #expect(unnamed.descriptors.map(\.name) == ["unknown", "unknown"])
    }

    @Test func nothingWhenNotForThisProcess() {
        #expect(SocketActivation(environment: [:]).descriptors.isEmpty)
        #expect(SocketActivation(environment: [:]).firstUnixStreamListener() == nil)
        #expect(SocketActivation(environment: ["LISTEN_PID": "1", "LISTEN_FDS": "1"]).descriptors.isEmpty)
        #expect(SocketActivation(environment: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "0"]).descriptors.isEmpty)
        #expect(SocketActivation(environment: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "x"]).descriptors.isEmpty)
    }

    private func freeDescriptorPair() throws -> Int32 {
        for candidate in Int32(700)..<Int32(1000)
        where fcntl(candidate, F_GETFD) < 0 && fcntl(candidate + 1, F_GETFD) < 0 {
            return candidate
        }
        throw POSIXError(.EMFILE)
    }

    private func listeningSocket(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        return fd
    }
}
