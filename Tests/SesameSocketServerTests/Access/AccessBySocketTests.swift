import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameSocketServer

/// Peers that are other processes, over the real socket: the role `hello` reports to a client
/// in its own namespaces, to one binary and to a copy of it. As root (CI), the ordinary peer
/// runs as nobody; otherwise the test's own uid is an ordinary peer (the daemon's uid is
/// another), and namespaces are made with a user namespace of its own.
@Suite("Access by what the peer is, over the socket")
struct AccessBySocketTests {
    static let isRoot = getuid() == 0
    static let socat = URL(fileURLWithPath: "/usr/bin/socat").resolvingSymlinksInPath().path

    /// A daemon whose peers are judged by `access` (its uid is the test's unless `ordinaryUid`:
    /// then another, so that the test's own processes are ordinary peers).
    static func withHarness(
        managers: [String] = [], readers: [String] = [], rootInContainers: Bool = false, ordinaryUid: Bool = false,
        _ body: (SocketHarness) async throws -> Void,
        configure: (inout LocalAPIServerConfiguration) -> Void = { _ in }
    ) async throws {
        let harness = try await SocketHarness.start { configuration in
            configure(&configuration)
            configuration.endpoint = .path(configuration.endpoint.path ?? "", mode: 0o666)
            configuration.access = AccessPolicy(
                daemonUid: ordinaryUid && !isRoot ? 4_000_000 : getuid(),
                managers: managers.compactMap(AccessPolicy.Principal.init),
                readers: readers.compactMap(AccessPolicy.Principal.init), rootInContainers: rootInContainers)
        }
        do {
            chmod(harness.directory, 0o755)
            try await body(harness)
            await harness.stop()
        } catch {
            await harness.stop()
            throw error
        }
    }

    /// The role `hello` gives `command`.
    static func role(of command: [String], socket: String) async throws -> String? {
        let answer = try await PeerClient.call(command, #"{"jsonrpc":"2.0","id":1,"method":"hello"}"#, socket: socket)
        return answer?["result"]?["role"]?.stringValue
    }

    /// Whether `command`'s role is `expected` (a throwing call the expectation can hold).
    static func role(of command: [String], socket: String, is expected: String) async throws -> Bool {
        try await role(of: command, socket: socket) == expected
    }

    /// `client` run as an ordinary user: nobody when the test is root.
    static func ordinary(_ client: String) -> [String] {
        isRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", client] : [client]
    }

    /// `client` in a mount and pid namespace of its own, as the same uid.
    static func contained(_ client: String) -> [String] {
        ["/usr/bin/unshare"] + (isRoot ? [] : ["-r"]) + ["-m", "-p", "-f", "--kill-child", "--", client]
    }

    @Test("root (or the daemon's uid) in its own mount and pid namespaces has no role by default")
    func containedRootHasNoRole() async throws {
        try await Self.withHarness { harness async throws in
            #expect(try await Self.role(of: [Self.socat], socket: harness.path, is: "manager"))
            #expect(try await Self.role(of: Self.contained(Self.socat), socket: harness.path, is: "none"))
        }
    }

    @Test("with access.root_in_containers it is a manager; a container entry gives it a role")
    func rootInContainers() async throws {
        try await Self.withHarness(rootInContainers: true) { harness async throws in
            #expect(try await Self.role(of: Self.contained(Self.socat), socket: harness.path, is: "manager"))
        }
        try await Self.withHarness(readers: ["container"]) { harness async throws in
            #expect(try await Self.role(of: Self.contained(Self.socat), socket: harness.path, is: "reader"))
        }
    }

    @Test("an exe: entry gives a role to that binary and not to a copy of it elsewhere")
    func exeEntry() async throws {
        try await Self.withHarness(readers: ["exe:\(Self.socat)"], ordinaryUid: true) { harness async throws in
            let copy = harness.directory + "/socat-copy"
            try FileManager.default.copyItem(atPath: Self.socat, toPath: copy)
            chmod(copy, 0o755)
            #expect(try await Self.role(of: Self.ordinary(Self.socat), socket: harness.path, is: "reader"))
            #expect(try await Self.role(of: Self.ordinary(copy), socket: harness.path, is: "none"))
        }
    }
}

extension LocalAPIServerConfiguration.Endpoint {
    var path: String? {
        if case .path(let path, _) = self { return path }
        return nil
    }
}
