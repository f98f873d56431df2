import Foundation
import NIOCore
import SesameLocalAPI
import Testing

@testable import SesameClient

#if canImport(Glibc)
import Glibc
#endif

/// Issue 12: a daemon that accepts and never answers must not hang its clients.
@Suite("SesameClient request timeout and socket errors", .timeLimit(.minutes(1)))
struct SesameClientTimeoutTests {
    @Test func aSilentDaemonGivesNoAnswerNamingTheSocketAndTheTime() async throws {
        let daemon = FakeDaemon()
        try await daemon.start()
        await daemon.script("getState") { _ in .hold }
        let client = SesameClient(socketPath: daemon.path, clientName: "tests", requestTimeout: .milliseconds(300))
        let error = await #expect(throws: SesameClientError.self) { _ = try await client.state() }
        #expect(error == .noAnswer(socketPath: daemon.path, timeout: .milliseconds(300)))
        #expect(error?.description == "sesamed at \(daemon.path) did not answer within 0.3 s")
        await client.close()
        await daemon.stop()
    }

    @Test func aSocketThatQueuesButNeverAcceptsGivesNoAnswer() async throws {
        // A listening socket nobody accepts on: what a client sees while the service is
        // hung before it takes the socket over (systemd holds it).
        let path = FakeDaemon.temporaryPath()
        let fd = try listeningSocket(path)
        defer {
            close(fd)
            unlink(path)
        }
        let client = SesameClient(socketPath: path, clientName: "tests", requestTimeout: .milliseconds(200))
        let error = await #expect(throws: SesameClientError.self) { _ = try await client.hello() }
        #expect(error == .noAnswer(socketPath: path, timeout: .milliseconds(200)))
        await client.close()
    }

    @Test func aLateAnswerIsDroppedAndTheNextCallIsAnswered() async throws {
        let daemon = FakeDaemon()
        try await daemon.start()
        await daemon.script("reload") { _ in .hold }
        // Long enough that the second call is answered in time on a loaded machine (2 s was not,
        // once, with the whole suite on two workers).
        let client = SesameClient(socketPath: daemon.path, clientName: "tests", requestTimeout: .seconds(5))
        await #expect(throws: SesameClientError.noAnswer(socketPath: daemon.path, timeout: .seconds(5))) {
            _ = try await client.reload()
        }
        await daemon.answerHeld(method: "reload", with: .result(await daemon.stateJSON))
        let state = try await client.state()
        #expect(state.status == .anonymous)
        await client.close()
        await daemon.stop()
    }

    @Test func withoutATimeoutACallWaitsForASlowAnswer() async throws {
        let daemon = FakeDaemon()
        try await daemon.start()
        await daemon.script("reload") { _ in .hold }
        let client = SesameClient(socketPath: daemon.path, clientName: "tests", requestTimeout: nil)
        async let answer = client.reload()
        await daemon.waitForRequest("reload")
        await daemon.answerHeld(method: "reload", with: .result(await daemon.stateJSON))
        #expect(try await answer.sequence == 1)
        await client.close()
        await daemon.stop()
    }

    @Test func theDefaultTimeoutIsBounded() {
        let client = SesameClient(socketPath: "/nonexistent/s.sock")
        #expect(client.requestTimeout == SesameClient.defaultRequestTimeout)
        #expect(SesameClient.defaultRequestTimeout == .seconds(60))
    }

    @Test func permissionDeniedIsToldApartFromAMissingSocket() throws {
        let path = FakeDaemon.temporaryPath()
        let fd = try listeningSocket(path)
        defer {
            close(fd)
            unlink(path)
        }
        chmod(path, 0o660)
        chown(path, 0, 0)
        let denied = ClientEngine.connectError(IOError(errnoCode: EACCES, reason: "connect"), socketPath: path)
        #expect(denied == .permissionDenied(socketPath: path, group: "root"))
        #expect(denied.description == "permission denied on \(path): join group root (or ask an administrator)")

        chmod(path, 0o600)
        let ownerOnly = ClientEngine.connectError(IOError(errnoCode: EACCES, reason: "connect"), socketPath: path)
        #expect(ownerOnly == .permissionDenied(socketPath: path, group: nil))

        let missing = ClientEngine.connectError(IOError(errnoCode: ENOENT, reason: "connect"), socketPath: path)
        #expect(missing == .daemonUnreachable(socketPath: path, detail: "no such file or directory"))
    }
}

struct SocketSetupError: Error {
    let step: String
    let code: Int32
}

/// A Unix stream socket listening at `path` that nobody accepts on.
func listeningSocket(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw SocketSetupError(step: "socket()", code: errno) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        let bytes = Array(path.utf8.prefix(raw.count - 1))
        raw.copyBytes(from: bytes + [0])
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
        let code = errno
        close(fd)
        throw SocketSetupError(step: "bind/listen on \(path)", code: code)
    }
    return fd
}
