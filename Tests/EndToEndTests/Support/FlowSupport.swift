import Foundation
import SesameClient
import SesameCore
import SesameLocalAPI
import SesameTesting
import Testing

/// Starts the emulator and a daemon (merges held by default), a client and a state log, runs
/// `body`, and cleans up.
func withDaemon(
    backend: TestBackend = .firebase, settings: [String: [String: String]] = [:],
    _ body: (EmulatorProcess, DaemonProcess, SesameClient, StateWatch) async throws -> Void
) async throws {
    let emulator = try await EmulatorProcess.start(backend: backend)
    defer { Task { await emulator.stop() } }
    let daemon = try await DaemonProcess.start(emulator: emulator, settings: settings)
    defer { Task { await daemon.cleanUp() } }
    let client = daemon.client()
    defer { Task { await client.close() } }
    let watch = try await StateWatch.start(client)
    defer { watch.stop() }
    do {
        try await body(emulator, daemon, client, watch)
    } catch {
        Issue.record("daemon log tail:\n\(daemon.log.suffix(4000))")
        throw error
    }
}

/// The states a client's `stateChanges` yielded, for checking the reasons of changes.
final class StateWatch: Sendable {
    actor Log {
        var states: [SesameState] = []
        func add(_ state: SesameState) { states.append(state) }
        var reasons: [String] { states.compactMap { $0.changeReason?.rawValue } }
    }

    let log = Log()
    private let task: Task<Void, Never>

    private init(_ client: SesameClient) {
        let stream = client.stateChanges
        let log = log
        task = Task {
            do {
                for try await state in stream { await log.add(state) }
            } catch {}
        }
    }

    /// Starts watching and waits for the first state (the subscription is in place).
    static func start(_ client: SesameClient) async throws -> StateWatch {
        let watch = StateWatch(client)
        try await eventually("the client subscribed") { await !watch.log.states.isEmpty }
        return watch
    }

    /// Waits until a change with `reason` was seen.
    func waitFor(_ reason: String, timeout: Duration = .seconds(10)) async throws {
        do {
            try await eventually("a change with reason \(reason)", timeout: timeout) {
                await log.reasons.contains(reason)
            }
        } catch {
            throw HarnessError("\(error); reasons seen: \(await log.reasons)")
        }
    }

    func stop() { task.cancel() }
}

/// Runs `body`, expecting a daemon error with `reason`; returns it.
@discardableResult
func expectDaemonError(
    _ reason: String, code: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async throws -> SesameClientError.DaemonError? {
    do {
        try await body()
        Issue.record("expected \(reason), but it succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as SesameClientError {
        guard let daemonError = error.daemonError else {
            Issue.record("expected \(reason), got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(daemonError.reason == reason, "\(daemonError.message)", sourceLocation: sourceLocation)
        if let code { #expect(daemonError.code == code, sourceLocation: sourceLocation) }
        return daemonError
    }
}

/// A fake IdP ID token for the Firebase emulator: strict-JSON claims (on either backend,
/// ``EmulatorProcess/federatedIdToken(sub:email:verified:)``).
func claims(sub: String, email: String?, verified: Bool) -> String {
    var object: [String: JSONValue] = ["sub": .string(sub)]
    if let email {
        object["email"] = .string(email)
        object["email_verified"] = .bool(verified)
    }
    return JSONValue.object(object).jsonString
}

/// `application/x-www-form-urlencoded` value encoding.
func formEncoded(_ value: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
}
