import Foundation
import SesameTesting

#if canImport(Glibc)
import Glibc
#endif

/// A network namespace of a test's own, joined to this one by a veth pair: `10.213.N.1/30` on
/// this side, `10.213.N.2/30` inside, IPv6 off inside (its address settling after a link comes
/// up would add changes the test does not mean). The link's inner end can be taken down and
/// up (``linkDown()``, ``linkUp()``); ``launcher`` runs a command inside. Needs root and `ip`.
final class TestNetwork: Sendable {
    let namespace: String
    let outerAddress: String
    private let outer: String
    private let inner: String

    static var isAvailable: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: ip) }
    private static let ip = FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") ? "/usr/sbin/ip" : "/sbin/ip"

    private init(namespace: String, outerAddress: String, outer: String, inner: String) {
        self.namespace = namespace
        self.outerAddress = outerAddress
        self.outer = outer
        self.inner = inner
    }

    /// The command prefix that runs a program inside the namespace.
    var launcher: [String] { [Self.ip, "netns", "exec", namespace] }

    static func create() async throws -> TestNetwork {
        let tag = String(UInt32.random(in: 0...0xFFFFFF), radix: 16)
        let subnet = Int.random(in: 0...63) * 4
        let network = TestNetwork(
            namespace: "sesame-\(tag)", outerAddress: "10.213.\(Int.random(in: 1...250)).\(subnet + 1)",
            outer: "sso\(tag)", inner: "ssi\(tag)")
        let innerAddress =
            network.outerAddress.split(separator: ".").dropLast().joined(separator: ".") + ".\(subnet + 2)"
        do {
            try await run(["netns", "add", network.namespace])
            try await run(["link", "add", network.outer, "type", "veth", "peer", "name", network.inner])
            try await run(["link", "set", network.inner, "netns", network.namespace])
            try await run(["addr", "add", network.outerAddress + "/30", "dev", network.outer])
            try await run(["link", "set", network.outer, "up"])
            try await run(["-n", network.namespace, "link", "set", "lo", "up"])
            try await run(["netns", "exec", network.namespace, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1"])
            try await run(["-n", network.namespace, "addr", "add", innerAddress + "/30", "dev", network.inner])
            try await network.linkUp()
        } catch {
            await network.remove()
            throw error
        }
        return network
    }

    /// Takes the inner end down: its route goes, so a connection to this side fails at once.
    func linkDown() async throws { try await Self.run(["-n", namespace, "link", "set", inner, "down"]) }

    /// Brings the inner end up: its address's route comes back.
    func linkUp() async throws { try await Self.run(["-n", namespace, "link", "set", inner, "up"]) }

    func remove() async {
        _ = try? await runCommand(Self.ip, ["link", "del", outer])
        _ = try? await runCommand(Self.ip, ["netns", "del", namespace])
    }

    @discardableResult
    private static func run(_ arguments: [String]) async throws -> CommandResult {
        let result = try await runCommand(ip, arguments)
        guard result.status == 0 else { throw HarnessError("ip \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result
    }
}
