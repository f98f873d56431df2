import Dispatch
import Foundation
import Logging
import Testing

@testable import SesameSystemd

/// A minimal daemon made of SesameSystemd's parts, for trying the units under a real systemd
/// (docs/systemd.md, "Trying the units in a container"): run this test binary with
/// `--testing-library swift-testing --filter StandInDaemonEntry` and
/// `SESAME_SYSTEMD_TEST_STANDIN=1`. It adopts the passed socket, logs through
/// ``JournalLogHandler``, sends READY/STATUS, pings the watchdog, answers each client with one
/// line about its sandbox, and sends STOPPING on SIGTERM. A no-op in normal test runs.
@Suite struct StandInDaemonEntry {
    static let variable = "SESAME_SYSTEMD_TEST_STANDIN"

    @Test func serveUntilTerminated() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment[Self.variable] != nil else { return }
        let sink = LogSink.detect(environment: environment)
        let logger = Logger(label: "sesame.standin") { label in
            JournalLogHandler(label: label, identifier: "sesamed", sink: sink)
        }
        let notifier = SystemdNotifier(environment: environment)
        guard let listener = SocketActivation(environment: environment).firstUnixStreamListener() else {
            logger.error("no socket passed", metadata: ["listen.fds": "\(environment["LISTEN_FDS"] ?? "none")"])
            exit(66)
        }

        signal(SIGTERM, SIG_IGN)
        let termination = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        termination.setEventHandler {
            try? notifier.notify(.stopping)
            logger.notice("stopping on SIGTERM")
            exit(0)
        }
        termination.resume()
        let watchdog = DispatchSource.makeTimerSource(queue: .global())
        if let interval = notifier.watchdogInterval {
            watchdog.schedule(deadline: .now(), repeating: .milliseconds(Int(interval / .milliseconds(1))))
            watchdog.setEventHandler { try? notifier.notify(.watchdog) }
            watchdog.resume()
        }

        let sandbox =
            "uid=\(getuid()) gid=\(getgid()) state=\(environment["STATE_DIRECTORY"] ?? "-") "
            + "runtime=\(environment["RUNTIME_DIRECTORY"] ?? "-") sink=\(sink) "
            + "watchdog=\(notifier.watchdogInterval.map { "\($0)" } ?? "off")"
        logger.info(
            "stand-in ready", metadata: ["standin.sandbox": "\(sandbox)", "keyring.path": "/var/lib/sesame/keyring"])
        try notifier.notify(.ready, .status("stand-in serving"))
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { continue }
            let line = sandbox + "\n"
            _ = Array(line.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            close(connection)
            logger.info("client served")
        }
        withExtendedLifetime((termination, watchdog)) {}
    }
}
