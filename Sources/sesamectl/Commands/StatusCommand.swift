import ArgumentParser
import Foundation
import SesameClient

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the session: status, uid, sign-in methods, email, username, token, connectivity, merges.",
        discussion: """
            With --json, prints the protocol's State object. When sesamed has just started with no \
            session (signed out, nothing changed yet: it is creating a guest account), status waits up \
            to 3 s for that first change, so it does not print a state the daemon is about to leave.
            """)

    /// How long `status` waits for a just-started daemon's first change.
    static let settleTime: Duration = .seconds(3)

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient(waiting: .daemon) { client in
            let state = try await client.state()
            guard Self.isSettling(state) else { return state }
            return await Self.firstChange(of: client, within: Self.settleTime) ?? state
        }
        options.output(json: state.json, text: StatusRenderer.render(state, now: Date()))
    }

    /// Whether `state` is the one a daemon starts in before anonymous-first has run: signed
    /// out, and no notification since it started (`sequence` 1).
    static func isSettling(_ state: SesameState) -> Bool {
        state.status == .signedOut && state.sequence <= 1
    }

    /// The first state of `client`'s stream that has left the starting state, or nil when
    /// none comes within `limit` (or the stream ends).
    static func firstChange(of client: SesameClient, within limit: Duration) async -> SesameState? {
        await withTaskGroup(of: SesameState?.self) { group in
            group.addTask {
                do {
                    for try await state in client.stateChanges where !StatusCommand.isSettling(state) { return state }
                } catch {}
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }
}
