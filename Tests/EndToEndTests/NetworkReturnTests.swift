import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 36, back at once: an offline daemon retries as soon as the network changes (rtnetlink),
/// coalesced so a flapping link is no storm. The daemon runs in a network namespace of the
/// test's own, reaching the emulator over a veth pair whose inner end is taken down and up.
/// Needs root (`ip netns`): CI runs `make test` as root; elsewhere these tests are not enabled.
@Suite("sesamed back at once when the network returns", .serialized, .timeLimit(.minutes(3)))
struct NetworkReturnTests {
    private static let attempt = "Could not create the anonymous user yet"

    /// An emulator reachable from the namespace, and a daemon inside it, started with the link
    /// down (so it is offline and backing off); `body` runs, then everything goes.
    private func withOfflineDaemon(
        _ body: (TestNetwork, DaemonProcess) async throws -> Void
    ) async throws {
        let network = try await TestNetwork.create()
        do {
            try await network.linkDown()
            let emulator = try await EmulatorProcess.start(arguments: ["--host", "0.0.0.0"])
            do {
                let port = emulator.authHost.split(separator: ":").last.map(String.init) ?? ""
                let databasePort = emulator.databaseHost.split(separator: ":").last.map(String.init) ?? ""
                let daemon = try await DaemonProcess.start(
                    emulator: emulator,
                    settings: [
                        "firebase": [
                            "auth_emulator_host": "\"\(network.outerAddress):\(port)\"",
                            "database_emulator_host": "\"\(network.outerAddress):\(databasePort)\"",
                        ]
                    ], waitFor: nil, launcher: network.launcher)
                do {
                    try await body(network, daemon)
                } catch {
                    await daemon.cleanUp()
                    throw error
                }
                await daemon.cleanUp()
            } catch {
                await emulator.stop()
                throw error
            }
            await emulator.stop()
        } catch {
            await network.remove()
            throw error
        }
        await network.remove()
    }

    private static func attempts(_ daemon: DaemonProcess) -> Int {
        daemon.log.components(separatedBy: attempt).count - 1
    }

    private static func reports(_ daemon: DaemonProcess) -> Int {
        daemon.log.components(separatedBy: "The network changed").count - 1
    }

    @Test(
        "offline and backing off (next try 4 s or more away): the link comes back and the daemon is online within 2 s",
        .enabled(if: TestNetwork.isAvailable))
    func backWithinTwoSeconds() async throws {
        try await withOfflineDaemon { network, daemon in
            // Four failed tries (about 0.5 + 1 + 2 + 4 s apart at most): the next waits 4 to 8 s.
            try await eventually("four failed tries", timeout: .seconds(30)) { Self.attempts(daemon) >= 4 }
            let returned = ContinuousClock.now
            try await network.linkUp()
            try await daemon.waitForStatus("anonymous", timeout: .seconds(10))
            let elapsed = ContinuousClock.now - returned
            #expect(elapsed <= .seconds(2), "online \(elapsed) after the link returned")
            #expect(Self.attempts(daemon) == 4, "no further failed try: the retry came with the network")
        }
    }

    @Test(
        "20 link flaps in 10 s while the backend stays unreachable cause at most a handful of tries",
        .enabled(if: TestNetwork.isAvailable))
    func flapsAreCoalesced() async throws {
        try await withOfflineDaemon { network, daemon in
            // The backend closes every connection, so a try while the link is up fails too.
            try await daemon.emulator.faults(["down": .bool(true)])
            try await eventually("two failed tries", timeout: .seconds(30)) { Self.attempts(daemon) >= 2 }
            let before = Self.attempts(daemon)
            for _ in 0..<20 {
                try await network.linkUp()
                try await Task.sleep(for: .milliseconds(250))
                try await network.linkDown()
                try await Task.sleep(for: .milliseconds(250))
            }
            // The last burst is reported once the network is quiet for the coalescing window.
            let reported = Self.reports(daemon)
            try await eventually("the last burst reported", timeout: .seconds(10)) { Self.reports(daemon) > reported }
            let tries = Self.attempts(daemon) - before
            // The backoff alone makes about 2 tries in these 11 s; each coalesced burst (at most
            // one per 5 s of flapping, then one at the end) adds at most one.
            #expect(tries <= 6, "\(tries) tries during 20 flaps in 10 s")
        }
    }
}
