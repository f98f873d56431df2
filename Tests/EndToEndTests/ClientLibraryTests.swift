import Foundation
import SesameClient
import SesameTesting
import Synchronization
import Testing

/// Records what a stream or a listener yields, from a background task, so a test can wait on it
/// with a bound instead of blocking on `next()`.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])
    private let failure = Mutex<String?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init() {}

    /// Starts reading `stream`.
    convenience init(_ stream: AsyncThrowingStream<Element, any Error>) {
        self.init()
        let started = Task { [self] in
            do {
                for try await element in stream { append(element) }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        task.withLock { $0 = started }
    }

    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var values: [Element] { storage.withLock { $0 } }
    var error: String? { failure.withLock { $0 } }
    func cancel() { task.withLock { $0?.cancel() } }

    /// Waits until `condition` holds for what has been recorded.
    func wait(
        _ what: String, timeout: Duration = .seconds(30), until condition: @escaping ([Element]) -> Bool
    ) async throws {
        do {
            try await eventually(what, timeout: timeout) { condition(values) }
        } catch {
            throw HarnessError("\(error); recorded: \(values); stream error: \(self.error ?? "none")")
        }
    }
}

extension [SesameState] {
    /// The auth reasons (the daemon's `authStateChanged` reasons), in order.
    var authReasons: [String] {
        compactMap(\.changeReason).map(\.rawValue).filter {
            !["snapshot", "token-refreshed", "user-updated", "connectivity-changed", "resynchronized"].contains($0)
        }
    }
}

/// The `SesameClient` library against the built daemon and emulator (issue 4).
@Suite("SesameClient end to end", .serialized, .timeLimit(.minutes(3)))
struct ClientLibraryTests {
    func withDaemon(
        settings: [String: [String: String]] = [:], _ body: (EmulatorProcess, DaemonProcess) async throws -> Void
    ) async throws {
        try await withEmulatorAndDaemon(settings: settings, body)
    }

    /// Checks that, within each daemon instance (a run starting at a snapshot), sequences go up
    /// by exactly one: nothing duplicated, nothing lost.
    func expectConsecutive(_ states: [SesameState], sourceLocation: SourceLocation = #_sourceLocation) {
        for (previous, next) in zip(states, states.dropFirst()) where next.changeReason != .snapshot {
            #expect(
                next.sequence == previous.sequence + 1,
                "sequence \(previous.sequence) then \(next.sequence) (\(next.changeReason?.rawValue ?? "-"))",
                sourceLocation: sourceLocation)
        }
    }

    @Test("stateChanges: the current state first, then every change in order, with reasons")
    func stateChangesInOrder() async throws {
        try await withDaemon { _, daemon in
            let client = daemon.client()
            let guest = try #require(try await daemon.uid())
            let states = Recorder(client.stateChanges)
            try await states.wait("the initial state") { !$0.isEmpty }
            let first = try #require(states.values.first)
            #expect(first.changeReason == .snapshot)
            #expect(first.status == .anonymous)
            #expect(first.user?.uid == guest)

            // Changes made by other processes.
            #expect(
                try await daemon.ctl(["sign-up", "gus@example.com", "--password-stdin"], stdin: "secret-1\n").status
                    == 0)
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            try await states.wait("linked, signed-out, anonymous-created") {
                $0.authReasons == ["linked", "signed-out", "anonymous-created"]
            }
            let values = states.values
            #expect(values.filter { $0.changeReason == .snapshot }.count == 1)
            expectConsecutive(values)
            let linked = try #require(values.first { $0.changeReason == .linked })
            #expect(linked.user?.uid == guest)
            #expect(linked.user?.isAnonymous == false)
            #expect(linked.user?.email == "gus@example.com")
            let last = try #require(values.last { $0.changeReason == .anonymousCreated })
            #expect(last.status == .anonymous)
            #expect(last.user?.uid != guest)
            #expect(try await client.state().sequence >= last.sequence)
            states.cancel()
            await client.close()
        }
    }

    @Test("stateChanges survives SIGKILL and a restart: a fresh state, no duplicate or lost sequence")
    func stateChangesAcrossRestart() async throws {
        try await withDaemon { _, daemon in
            let client = daemon.client()
            let before = try await client.hello()
            let states = Recorder(client.stateChanges)
            try await states.wait("the initial state") { !$0.isEmpty }
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await states.wait("reset, anonymous-created") { $0.authReasons == ["reset", "anonymous-created"] }
            let uid = try #require(states.values.last?.user?.uid)

            try await daemon.kill()
            try await daemon.restart()
            try await states.wait("a fresh snapshot from the new instance") {
                $0.filter { $0.changeReason == .snapshot }.count == 2
            }
            let after = try await client.hello()
            #expect(after.instance != before.instance)
            let fresh = try #require(states.values.last { $0.changeReason == .snapshot })
            #expect(fresh.user?.uid == uid)
            #expect(fresh.status == .anonymous)

            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await states.wait("the next changes") {
                $0.authReasons == ["reset", "anonymous-created", "reset", "anonymous-created"]
            }
            expectConsecutive(states.values)
            // Within the new instance, the stream agrees with the daemon.
            try await eventually("the stream caught up") {
                try await client.state().sequence == states.values.last?.sequence
            }
            states.cancel()
            await client.close()
        }
    }

    @Test("a removed listener stops receiving; others go on")
    func listeners() async throws {
        try await withDaemon { _, daemon in
            let client = daemon.client()
            let kept = Recorder<SesameState>()
            let removed = Recorder<SesameState>()
            let keptHandle = client.addStateDidChangeListener { kept.append($0) }
            let removedHandle = client.addStateDidChangeListener { removed.append($0) }
            try await kept.wait("the kept listener's first call") { !$0.isEmpty }
            try await removed.wait("the removed listener's first call") { !$0.isEmpty }
            #expect(kept.values.first?.changeReason == .snapshot)
            #expect(removed.values.first?.status == .anonymous)

            client.removeStateDidChangeListener(removedHandle)
            let countAtRemoval = removed.values.count
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await kept.wait("the kept listener sees the reset") {
                $0.authReasons == ["reset", "anonymous-created"]
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(removed.values.count == countAtRemoval)
            #expect(removed.values.authReasons.isEmpty)
            expectConsecutive(kept.values)
            client.removeStateDidChangeListener(keptHandle)
            await client.close()
        }
    }

    @Test("idTokenChanges: the current token's expiry, then each new token")
    func idTokenChanges() async throws {
        try await withDaemon { _, daemon in
            let client = daemon.client()
            let guest = try #require(try await daemon.uid())
            let tokens = Recorder(client.idTokenChanges)
            try await tokens.wait("the current token") { !$0.isEmpty }
            #expect(tokens.values.first?.uid == guest)
            #expect((tokens.values.first?.expiresAt ?? .distantPast) > Date())
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            let newUid = try #require(try await daemon.uid())
            try await tokens.wait("the new guest's token") { $0.contains { $0.uid == newUid } }
            let token = try await client.idToken()
            #expect(token.uid == newUid)
            #expect(token.signInProvider == "anonymous")
            #expect(token.token.split(separator: ".", omittingEmptySubsequences: false).count == 3)
            tokens.cancel()
            await client.close()
        }
    }

    @Test("typed calls; the daemon's refusals come back as SesameClientError with code, reason and message")
    func typedCallsAndErrors() async throws {
        try await withDaemon(settings: ["merge": ["hold": "600"]]) { emulator, daemon in
            let client = daemon.client()
            let hello = try await client.hello()
            #expect(hello.server == "sesamed")
            #expect(hello.protocolVersion == 1)
            #expect(hello.role == .manager)

            do {
                _ = try await client.signOut()
                Issue.record("a guest's sign-out without reset succeeded")
            } catch let error as SesameClientError {
                #expect(error.code == 4000)
                #expect(error.reason == "requires-reset-confirmation")
                #expect(error.daemonError?.message.isEmpty == false)
            }
            do {
                _ = try await client.createAccount(email: "not-an-email", password: "secret-1")
                Issue.record("an invalid email was accepted")
            } catch let error as SesameClientError {
                #expect(error.code == 1000)
                #expect(error.reason == "invalid-email")
            }
            do {
                _ = try await client.completeMerge(mergeId: "nope")
                Issue.record("an unknown merge completed")
            } catch let error as SesameClientError {
                #expect(error.reason == "no-such-merge")
            }

            // A migrator sees a merge and completes it.
            _ = try await emulator.createAccount(email: "hal@example.com", password: "secret-1")
            let merges = Recorder(client.merges)
            try await Task.sleep(for: .milliseconds(300))
            let guest = try #require(try await daemon.uid())
            let (state, merge) = try await client.signIn(identifier: "hal@example.com", password: "secret-1")
            #expect(state.status == .authenticated)
            let recorded = try #require(merge)
            #expect(recorded.fromUid == guest)
            try await merges.wait("the merge on the migrator stream") { $0.map(\.mergeId) == [recorded.mergeId] }
            let completed = try await client.completeMerge(mergeId: recorded.mergeId)
            #expect(completed.pendingMerges.isEmpty)
            do {
                _ = try await client.createAccount(email: "hal@example.com", password: "secret-1")
                Issue.record("sign-up while signed in succeeded")
            } catch let error as SesameClientError {
                #expect(error.reason == "already-signed-in")
            }
            merges.cancel()
            await client.close()
        }
    }

    @Test("a missing socket is daemonUnreachable naming the path")
    func unreachable() async throws {
        let path = "/tmp/no-such-\(UUID().uuidString.prefix(6))/s.sock"
        let client = SesameClient(socketPath: path)
        do {
            _ = try await client.state()
            Issue.record("a call to a missing socket succeeded")
        } catch let error as SesameClientError {
            guard case .daemonUnreachable(let socketPath, _) = error else {
                Issue.record("expected daemonUnreachable, got \(error)")
                return
            }
            #expect(socketPath == path)
            #expect(error.description.contains(path))
        }
        await client.close()
    }
}
