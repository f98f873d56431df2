import Foundation
import Logging
import Testing

@testable import SesameSocketServer

#if canImport(Glibc)
import Glibc
#endif

@Suite("The socket file's mode and group", .timeLimit(.minutes(1)))
struct SocketFileTests {
    @Test(
        "a symlink swapped in between bind and chmod is not followed: its target keeps its mode and the server refuses")
    func symlinkSwap() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        let victim = harness.directory + "/victim"
        _ = FileManager.default.createFile(
            atPath: victim, contents: Data("secret".utf8), attributes: [.posixPermissions: 0o600])
        let path = harness.directory + "/other.sock"
        var configuration = LocalAPIServerConfiguration(
            endpoint: .path(path, mode: 0o666), access: AccessPolicy(daemonUid: getuid()), version: "test")
        configuration.afterBind = { bound in
            rename(bound, bound + ".moved")
            symlink(victim, bound)
        }
        let server = LocalAPIServer(
            configuration: configuration, service: harness.service, instance: "i",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        await #expect(throws: LocalAPIServerError.self) { try await server.bind() }
        var info = stat()
        #expect(stat(victim, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test("the socket gets the configured mode and group")
    func modeAndGroup() async throws {
        let group: UInt32 = getuid() == 0 ? 4_242 : getgid()
        let harness = try await SocketHarness.start {
            $0.endpoint = .path(($0.endpoint.pathValue ?? ""), mode: 0o660)
            $0.socketGroup = group
        }
        defer { Task { await harness.stop() } }
        var info = stat()
        #expect(lstat(harness.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o660)
        #expect(info.st_gid == group)
    }
}

extension LocalAPIServerConfiguration.Endpoint {
    var pathValue: String? {
        if case .path(let path, _) = self { return path }
        return nil
    }
}
