import ArgumentParser
import Foundation
import SesameClient
import SesameLocalAPI
import Synchronization
import Testing

@testable import sesamectl

/// sesamectl's second factor: a sign-in that answers `second-factor-required` asks for codes
/// (here from a list instead of the terminal) and finishes with `completeSecondFactor` at the
/// fake daemon.
@Suite("sesamectl second factor", .timeLimit(.minutes(1)))
struct SesameCtlSecondFactorTests {
    /// Codes typed in turn, and the lines the prompt said.
    final class Terminal: Sendable {
        let codes: Mutex<[String]>
        let lines = Mutex<[String]>([])
        let prompts = Mutex<[String]>([])
        /// The signal that comes while the next code is read (nil: none).
        let signal: Int32?
        init(_ codes: [String], signal: Int32? = nil) {
            self.codes = Mutex(codes)
            self.signal = signal
        }

        func prompt(fromStandardInput: Bool) -> SecondFactorPrompt {
            let signal = self.signal
            return SecondFactorPrompt(
                fromStandardInput: fromStandardInput,
                readCode: { prompt, _ in
                    self.prompts.withLock { $0.append(prompt) }
                    if signal != nil {
                        // A person who never types: the signal comes first.
                        Thread.sleep(forTimeInterval: 5)
                        throw ValidationError("no code")
                    }
                    return try self.codes.withLock { codes in
                        guard !codes.isEmpty else { throw ValidationError("no more codes") }
                        return codes.removeFirst()
                    }
                },
                say: { line in self.lines.withLock { $0.append(line) } },
                watchSignals: {
                    (
                        {
                            if let signal { return signal }
                            try? await Task.sleep(for: .seconds(3600))
                            return nil
                        }, {}
                    )
                })
        }
    }

    /// A daemon whose `signIn` needs a second factor and whose `completeSecondFactor` accepts
    /// only `123456` (anything else: `invalid-verification-code`, or `reason` when given).
    static func daemon(
        otherwise reason: String = "invalid-verification-code"
    ) async throws -> (
        FakeDaemon, SesameClient
    ) {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("signIn") { _ in .error(SesameClientAccountSecurityTests.secondFactorRequired) }
        await daemon.configure {
            $0.status = "authenticated"
            $0.uid = "ann"
        }
        let state = await daemon.stateJSON
        await daemon.script("completeSecondFactor") { request in
            guard request.params.values["code"] == "123456" else {
                return .error(LocalAPIError(code: .authentication, reason: reason, message: "No."))
            }
            return .result(["state": state, "merge": .null])
        }
        return (daemon, client)
    }

    @Test func aWrongCodeIsAskedAgainAndTheRightOneSignsIn() async throws {
        let (daemon, client) = try await Self.daemon()
        let terminal = Terminal(["000000", "123456"])
        let outcome = try await terminal.prompt(fromStandardInput: false).signIn(client) {
            try await client.signIn(identifier: "ann@example.com", password: "pw")
        }
        #expect(outcome.state.status == .authenticated && outcome.state.user?.uid == "ann")
        let sent = await daemon.requests("completeSecondFactor").map(\.params.values)
        #expect(sent == [["challengeId": "ch-1", "code": "000000"], ["challengeId": "ch-1", "code": "123456"]])
        #expect(terminal.prompts.withLock { $0 } == [SecondFactorPrompt.prompt, SecondFactorPrompt.prompt])
        let lines = terminal.lines.withLock { $0 }
        #expect(
            lines.first
                == "this account has a second factor (Phone): enter the 6-digit code your authenticator app shows")
        #expect(lines.last?.contains("2 tries left") == true)
        await client.close()
        await daemon.stop()
    }

    @Test func afterThreeWrongCodesTheCommandFailsWithStatusOne() async throws {
        let (daemon, client) = try await Self.daemon()
        let terminal = Terminal(["1", "2", "3", "123456"])
        let error = await #expect(throws: ExitCode.self) {
            _ = try await terminal.prompt(fromStandardInput: false).signIn(client) {
                try await client.signIn(identifier: "ann@example.com", password: "pw")
            }
        }
        #expect(error?.rawValue == 1)
        #expect(await daemon.requests("completeSecondFactor").count == SecondFactorPrompt.attempts)
        #expect(terminal.lines.withLock { $0.last?.hasPrefix("that code is not right either") } == true)
        await client.close()
        await daemon.stop()
    }

    @Test func aCodeFromStandardInputIsTriedOnce() async throws {
        let (daemon, client) = try await Self.daemon()
        let terminal = Terminal(["999999", "123456"])
        await #expect(throws: ExitCode.self) {
            _ = try await terminal.prompt(fromStandardInput: true).signIn(client) {
                try await client.signIn(identifier: "ann@example.com", password: "pw")
            }
        }
        #expect(await daemon.requests("completeSecondFactor").count == 1)
        // Where the code came from, then one line: no prompt for a person who is not there, no
        // "either" after one try.
        let lines = terminal.lines.withLock { $0 }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first == "this account has a second factor (Phone): reading its code from standard input")
        #expect(lines.last?.hasPrefix("that code is not right: nothing changed; sign in again") == true)
        #expect(lines.allSatisfy { !$0.contains("either") && !$0.contains("enter the 6-digit code") })
        // The challenge is cancelled: status no longer says a sign-in waits for a code.
        #expect(await daemon.requests("cancelSignIn").map(\.params.values) == [["flowId": "ch-1"]])
        await client.close()
        await daemon.stop()
    }

    @Test func theLastWrongCodeAtTheTerminalCancelsTheChallenge() async throws {
        let (daemon, client) = try await Self.daemon()
        let terminal = Terminal(["1", "2", "3"])
        await #expect(throws: ExitCode.self) {
            _ = try await terminal.prompt(fromStandardInput: false).signIn(client) {
                try await client.signIn(identifier: "ann@example.com", password: "pw")
            }
        }
        #expect(await daemon.requests("cancelSignIn").map(\.params.values) == [["flowId": "ch-1"]])
        await client.close()
        await daemon.stop()
    }

    @Test func aSignalWhileWaitingForTheCodeCancelsTheChallenge() async throws {
        let (daemon, client) = try await Self.daemon()
        let terminal = Terminal([], signal: SIGINT)
        let error = await #expect(throws: ExitCode.self) {
            _ = try await terminal.prompt(fromStandardInput: false).signIn(client) {
                try await client.signIn(identifier: "ann@example.com", password: "pw")
            }
        }
        #expect(error?.rawValue == 128 + SIGINT)
        #expect(await daemon.requests("cancelSignIn").map(\.params.values) == [["flowId": "ch-1"]])
        #expect(await daemon.requests("completeSecondFactor").isEmpty)
        #expect(terminal.lines.withLock { $0.last } == "Sign-in cancelled: nothing changed.")
        await client.close()
        await daemon.stop()
    }

    @Test func aCodeThatCannotBeReadCancelsTheChallenge() async throws {
        let (daemon, client) = try await Self.daemon()
        let terminal = Terminal([])
        await #expect(throws: ValidationError.self) {
            _ = try await terminal.prompt(fromStandardInput: true).signIn(client) {
                try await client.signIn(identifier: "ann@example.com", password: "pw")
            }
        }
        #expect(await daemon.requests("cancelSignIn").map(\.params.values) == [["flowId": "ch-1"]])
        await client.close()
        await daemon.stop()
    }

    @Test func sesamedEndingTheChallengeForWrongCodesSaysWhenToTryAgain() async throws {
        let (daemon, client) = try await Self.daemon()
        await daemon.script("completeSecondFactor") { _ in
            .error(
                LocalAPIError(
                    code: .backend, reason: "too-many-requests", message: "No.", data: ["retryAfterMs": 30000]))
        }
        let terminal = Terminal(["000000"])
        await #expect(throws: ExitCode.self) {
            _ = try await terminal.prompt(fromStandardInput: false).signIn(client) {
                try await client.signIn(identifier: "ann@example.com", password: "pw")
            }
        }
        #expect(
            terminal.lines.withLock { $0.last }
                == "too many wrong codes: this sign-in ended, nothing changed; sign in again in 30 s")
        await client.close()
        await daemon.stop()
    }

    @Test func enterAloneAtTheTerminalAsksAgain() throws {
        let typed = Mutex(["", "  ", "123 456"])
        let asked = Mutex(0)
        let code = try CodeReader.read(prompt: "Code: ", fromStandardInput: false) { _ in
            asked.withLock { $0 += 1 }
            return typed.withLock { $0.removeFirst() }
        }
        #expect(code == "123456")
        #expect(asked.withLock { $0 } == 3)
        // A terminal that only ever answers empty lines (closed) ends after a few.
        let empties = Mutex(0)
        #expect(throws: ValidationError.self) {
            _ = try CodeReader.read(prompt: "Code: ", fromStandardInput: false) { _ in
                empties.withLock { $0 += 1 }
                return ""
            }
        }
        #expect(empties.withLock { $0 } == CodeReader.emptyLinesAskedAgain + 1)
    }

    @Test func anExpiredChallengeSaysToSignInAgain() async throws {
        let (daemon, client) = try await Self.daemon(otherwise: "expired-sign-in-flow")
        let terminal = Terminal(["000000"])
        await #expect(throws: ExitCode.self) {
            _ = try await terminal.prompt(fromStandardInput: false).signIn(client) {
                try await client.signIn(identifier: "ann@example.com", password: "pw")
            }
        }
        #expect(terminal.lines.withLock { $0.last?.contains("sign in again") } == true)
        await client.close()
        await daemon.stop()
    }

    @Test func aSignInWithoutASecondFactorAsksNothing() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let state = await daemon.stateJSON
        await daemon.script("signIn") { _ in .result(["state": state, "merge": .null]) }
        let terminal = Terminal([])
        _ = try await terminal.prompt(fromStandardInput: false).signIn(client) {
            try await client.signIn(identifier: "ann@example.com", password: "pw")
        }
        await daemon.script("signIn") { _ in
            .error(LocalAPIError(code: .authentication, reason: "invalid-login-credentials", message: "No."))
        }
        let error = await #expect(throws: SesameClientError.self) {
            _ = try await terminal.prompt(fromStandardInput: false).signIn(client) {
                try await client.signIn(identifier: "ann@example.com", password: "pw")
            }
        }
        #expect(error?.reason == "invalid-login-credentials")
        #expect(terminal.prompts.withLock { $0.isEmpty } && terminal.lines.withLock { $0.isEmpty })
        #expect(await daemon.requests("completeSecondFactor").isEmpty)
        await client.close()
        await daemon.stop()
    }

    @Test func theFactorIsNamedOnlyWhenTheAccountHasSeveral() {
        let totp = SesameSecondFactor(factorId: "t", type: "totp")
        let phone = SesameSecondFactor(factorId: "p", type: "phone")
        let date = Date(timeIntervalSince1970: 0)
        #expect(SecondFactorPrompt.factorId(of: .init(challengeId: "c", factors: [totp], expiresAt: date)) == nil)
        #expect(
            SecondFactorPrompt.factorId(of: .init(challengeId: "c", factors: [phone, totp], expiresAt: date)) == "t")
        #expect(
            SecondFactorPrompt.introduction(.init(challengeId: "c", factors: [totp], expiresAt: date))
                == "this account has a second factor: enter the 6-digit code your authenticator app shows")
    }

    @Test func typedCodesLoseTheirSpacesAndDashes() {
        #expect(CodeReader.normalized(" 123 456\r") == "123456")
        #expect(CodeReader.normalized("123-456") == "123456")
    }

    @Test func theBrowserIsToldToGoBackToTheTerminal() {
        let error = SesameClientError.daemon(
            .init(code: 1000, reason: "second-factor-required", message: "m"))
        #expect(InteractiveSignIn.page(for: error, retry: "x") == .secondFactor)
    }
}
