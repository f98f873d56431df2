import ArgumentParser
import Foundation
import SesameClient
import Synchronization

/// Finishes a sign-in that sesamed answered with `1000 second-factor-required`: asks for the
/// code from the person's authenticator app (or reads it from `--code-stdin`), calls
/// `completeSecondFactor`, and asks again after a wrong code, up to ``attempts`` codes in all.
/// Every sign-in command runs its call through ``signIn(_:_:)``.
///
/// Whenever the command gives up (the last wrong code, a code from standard input that is
/// wrong, SIGINT or SIGTERM while it waits for a code), it cancels the challenge at sesamed
/// (`cancelSignIn` with the challenge's id), so `status` no longer says a sign-in waits.
struct SecondFactorPrompt: Sendable {
    typealias Outcome = (state: SesameState, merge: SesameMerge?)
    typealias CodeSource = @Sendable (_ prompt: String, _ fromStandardInput: Bool) throws -> String
    /// Starts watching for the signals that interrupt the prompt; the first one, or nil when
    /// watching stops. Tests pass their own.
    typealias SignalWatch = @Sendable () -> (first: @Sendable () async -> Int32?, stop: @Sendable () -> Void)

    /// How many codes the person may type at the terminal before the command gives up (one
    /// from standard input: a script that sent a wrong code would send the same again).
    static let attempts = 3
    static let prompt = "Code from your authenticator app: "

    /// `--code-stdin`.
    var fromStandardInput: Bool
    /// Where codes come from (the terminal or standard input; tests pass their own).
    var readCode: CodeSource = { prompt, fromStandardInput in
        try CodeReader.read(prompt: prompt, fromStandardInput: fromStandardInput)
    }
    /// Where the lines for the person go (standard error).
    var say: @Sendable (String) -> Void = { StandardError.print($0) }
    var watchSignals: SignalWatch = {
        let signals = SignalCancellation()
        return ({ await signals.first() }, { signals.stop() })
    }

    /// Runs a sign-in call; when it needs a second factor, finishes it with a code. Signals are
    /// watched from the start: SIGINT or SIGTERM during the call takes effect when sesamed
    /// answers, so a challenge the call opened is cancelled rather than left waiting.
    /// `body` that watches SIGINT and SIGTERM itself (an interactive flow, which cancels its flow
    /// on them) runs without this watch: two watches of one signal would leave one of them
    /// without it, and the flow would never hear the Ctrl-C.
    func signIn(
        _ client: SesameClient, bodyWatchesSignals: Bool = false, _ body: () async throws -> Outcome
    ) async throws -> Outcome {
        if bodyWatchesSignals {
            do {
                return try await body()
            } catch let error as SesameClientError {
                guard error.reason == "second-factor-required", let challenge = error.daemonError?.challenge else {
                    throw error
                }
                return try await complete(challenge, client: client)
            }
        }
        let watch = watchSignals()
        let signal = Task { await watch.first() }
        defer {
            signal.cancel()
            watch.stop()
        }
        do {
            return try await body()
        } catch let error as SesameClientError {
            guard error.reason == "second-factor-required", let challenge = error.daemonError?.challenge else {
                throw error
            }
            return try await complete(challenge, client: client, signal: signal)
        }
    }

    /// Asks for codes until one finishes the sign-in, the tries run out or the challenge ends.
    /// - Throws: `ExitCode` 1 (after saying why) for a last wrong code or an ended challenge,
    ///   128 + the signal's number for SIGINT or SIGTERM; other errors as the client threw them.
    func complete(_ challenge: SesameSecondFactorChallenge, client: SesameClient) async throws -> Outcome {
        let watch = watchSignals()
        let signal = Task { await watch.first() }
        defer {
            signal.cancel()
            watch.stop()
        }
        return try await complete(challenge, client: client, signal: signal)
    }

    /// Whatever ends the command before the sign-in is finished (the last wrong code, a signal,
    /// a code that cannot be read, sesamed unreachable) cancels the challenge: nobody will
    /// answer it, and `status` should not say a sign-in waits for a code.
    private func complete(
        _ challenge: SesameSecondFactorChallenge, client: SesameClient, signal: Task<Int32?, Never>
    ) async throws -> Outcome {
        do {
            return try await askForCodes(challenge, client: client, signal: signal)
        } catch {
            try? await client.cancelSignIn(flowId: challenge.challengeId)
            throw error
        }
    }

    private func askForCodes(
        _ challenge: SesameSecondFactorChallenge, client: SesameClient, signal: Task<Int32?, Never>
    ) async throws -> Outcome {
        // From standard input nobody is asked: the line says where the code comes from.
        say(fromStandardInput ? Self.fromStandardInputLine(challenge) : Self.introduction(challenge))
        let tries = fromStandardInput ? 1 : Self.attempts
        var attempt = 1
        while true {
            let code: String
            switch try await Self.firstOf(
                read: { [readCode, fromStandardInput] in
                    try readCode(Self.prompt, fromStandardInput)
                }, signal: signal)
            {
            case .code(let typed): code = typed
            case .signal(let number):
                say("Sign-in cancelled: nothing changed.")
                throw ExitCode(128 + number)
            }
            do {
                return try await client.completeSecondFactor(
                    challengeId: challenge.challengeId, code: code, factorId: Self.factorId(of: challenge))
            } catch let error as SesameClientError where error.reason == "invalid-verification-code" {
                guard attempt < tries else {
                    say(Self.lastWrongCode(tries: tries))
                    throw ExitCode(ExitStatus.failure.rawValue)
                }
                attempt += 1
                let left = tries - attempt + 1
                say(
                    "that code is not right: type the code the app shows now (\(left) \(left == 1 ? "try" : "tries") left)"
                )
            } catch let error as SesameClientError where error.reason == "too-many-requests" {
                // sesamed's own bound on wrong codes ended the challenge.
                let wait = error.daemonError?.retryAfterMs.map { " in \(($0 + 999) / 1000) s" } ?? " later"
                say("too many wrong codes: this sign-in ended, nothing changed; sign in again\(wait)")
                throw ExitCode(ExitStatus.failure.rawValue)
            } catch let error as SesameClientError where error.reason == "expired-sign-in-flow" {
                say("the code came too late (the sign-in waits 5 minutes at most): nothing changed; sign in again")
                throw ExitCode(ExitStatus.failure.rawValue)
            }
        }
    }

    /// The line after the last wrong code: one clear line, no "either" after a single try.
    static func lastWrongCode(tries: Int) -> String {
        (tries == 1 ? "that code is not right" : "that code is not right either")
            + ": nothing changed; sign in again and give the code the app shows at that moment "
            + "(codes change every 30 s; check the phone's clock)"
    }

    /// With `--code-stdin`: which factor, and that its code is read, not asked for.
    static func fromStandardInputLine(_ challenge: SesameSecondFactorChallenge) -> String {
        "this account has a second factor\(factorNames(challenge)): reading its code from standard input"
    }

    /// The line before the first prompt: which factor the code comes from.
    static func introduction(_ challenge: SesameSecondFactorChallenge) -> String {
        "this account has a second factor\(factorNames(challenge)): enter the 6-digit code your authenticator app shows"
    }

    /// ` (Phone)`: the factors' names, or nothing when they have none.
    static func factorNames(_ challenge: SesameSecondFactorChallenge) -> String {
        let names = challenge.factors.compactMap { $0.displayName?.isEmpty == false ? $0.displayName : nil }
        return names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
    }

    /// The factor to name in `completeSecondFactor`: nil lets sesamed choose (one factor, or
    /// the account's TOTP factor).
    static func factorId(of challenge: SesameSecondFactorChallenge) -> String? {
        let totp = challenge.factors.filter { $0.type == "totp" }
        return challenge.factors.count > 1 && totp.count == 1 ? totp[0].factorId : nil
    }

    enum Read: Sendable {
        case code(String)
        case signal(Int32)
    }

    /// A code read on its own thread (reading blocks), or the signal if it comes first; the
    /// read left behind ends with the process.
    static func firstOf(
        read: @escaping @Sendable () throws -> String, signal: Task<Int32?, Never>
    ) async throws -> Read {
        let resumed = Mutex(false)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Read, any Error>) in
            let once: @Sendable (Result<Read, any Error>) -> Void = { result in
                guard
                    resumed.withLock({ done in
                        defer { done = true }
                        return !done
                    })
                else { return }
                continuation.resume(with: result)
            }
            Thread { once(Result { .code(try read()) }) }.start()
            Task {
                guard let number = await signal.value else { return }
                once(.success(.signal(number)))
            }
        }
    }
}
