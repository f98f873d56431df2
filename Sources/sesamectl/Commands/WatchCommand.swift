import ArgumentParser
import Dispatch
import Foundation
import SesameClient

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print one line per notification until interrupted; reconnects when sesamed restarts.",
        discussion: """
            On connecting, and again on every reconnect, first prints the current state (`state: …`), \
            so you see where the notifications start from. With --json, prints the protocol's \
            notification lines exactly (no state line); connection changes go to standard error \
            either way. Exits 0 on SIGINT or SIGTERM.
            """)

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let signals = Self.exitOnSignals()
        defer { withExtendedLifetime(signals) {} }
        let client = SesameClient(
            socketPath: options.socketPath, clientName: "sesamectl watch",
            requestTimeout: options.requestTimeout(.daemon))
        do {
            // Fail at once (status 69) when nothing listens; later outages are waited out.
            // The stream's own `connected` line (on standard error) comes once subscribed.
            _ = try await client.hello()
            for try await notification in client.notifications {
                if notification.isFromDaemon {
                    if let line = NotificationRenderer.line(for: notification, json: options.json) {
                        print(line)
                        fflush(nil)
                    }
                } else {
                    if let line = NotificationRenderer.line(for: notification, json: false) {
                        StandardError.print(line)
                    }
                    if !options.json, let line = NotificationRenderer.stateLine(for: notification) {
                        print(line)
                        fflush(nil)
                    }
                }
            }
        } catch let error as SesameClientError {
            let report = ErrorReport.make(for: error, socketPath: client.socketPath)
            StandardError.print(report.message)
            throw ExitCode(report.status.rawValue)
        }
    }

    /// SIGINT and SIGTERM end the command with status 0.
    static func exitOnSignals() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { signo in
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler {
                fflush(nil)
                Foundation.exit(0)
            }
            source.resume()
            return source
        }
    }
}
