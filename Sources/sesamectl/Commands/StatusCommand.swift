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
            to 3 s for that first change, so it does not print a state the daemon is about to leave. \
            While an address change is pending, status first has sesamed check the session with the \
            backend (Firebase ends it once the change is confirmed), so it never shows an account \
            that is already over; when it ended, standard error says why and what to do.
            """)

    /// How long `status` waits for a just-started daemon's first change.
    static let settleTime: Duration = .seconds(3)

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let shown: Shown = try await options.withClient(waiting: .daemon) { client in
            try await Self.read(client)
        }
        options.output(json: shown.state.json, text: StatusRenderer.render(shown.state, now: Date()))
        if let ended = shown.ended { StandardError.print(ended) }
    }

    /// The state to show, and what to tell the person when the session just ended.
    struct Shown {
        var state: SesameState
        var ended: String?
    }

    static func read(_ client: SesameClient) async throws -> Shown {
        let state = try await client.state()
        if let ended = await checkPendingEmailChange(state, client: client) {
            // The session just ended: show the guest sesamed starts next, when it comes soon.
            let after = try await client.state()
            guard after.status == .signedOut else { return Shown(state: after, ended: ended) }
            let guest = await firstChange(of: client, within: settleTime) { $0.status != .signedOut }
            return Shown(state: guest ?? after, ended: ended)
        }
        guard isSettling(state) else { return Shown(state: state) }
        return Shown(state: await firstChange(of: client, within: settleTime) ?? state)
    }

    /// While the account's address change is pending: a forced refresh, which ends a session
    /// the backend revoked at the confirmation. Returns what to tell the person when it ended.
    static func checkPendingEmailChange(_ state: SesameState, client: SesameClient) async -> String? {
        guard let user = state.user, !user.isAnonymous, user.pendingEmail != nil else { return nil }
        do {
            _ = try await client.idToken(forceRefresh: true)
            return nil
        } catch let error as SesameClientError {
            guard let daemonError = error.daemonError,
                daemonError.reason == "credentials-changed" || daemonError.reason == "session-revoked"
            else { return nil }
            return ErrorReport.advice(for: daemonError)
        } catch {
            return nil
        }
    }

    /// Whether `state` is the one a daemon starts in before anonymous-first has run: signed
    /// out, and no notification since it started (`sequence` 1).
    static func isSettling(_ state: SesameState) -> Bool {
        state.status == .signedOut && state.sequence <= 1
    }

    /// The first state of `client`'s stream that has left the starting state (or that
    /// `wanted` accepts), or nil when none comes within `limit` (or the stream ends).
    static func firstChange(
        of client: SesameClient, within limit: Duration,
        where wanted: @escaping @Sendable (SesameState) -> Bool = { !StatusCommand.isSettling($0) }
    ) async -> SesameState? {
        await withTaskGroup(of: SesameState?.self) { group in
            group.addTask {
                do {
                    for try await state in client.stateChanges where wanted(state) { return state }
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
