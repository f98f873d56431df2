import ArgumentParser
import Foundation
import SesameClient
import Synchronization

/// `sign-in PROVIDER --device|--browser`: starts the flow at sesamed, shows the person what to
/// do, waits for the outcome, and on SIGINT (Ctrl-C) or SIGTERM cancels the flow and exits
/// with 128 + the signal's number.
struct InteractiveSignIn: Sendable {
    typealias Outcome = (state: SesameState, merge: SesameMerge?)

    var providerId: String
    var kind: SignInFlowKind
    /// `--json`: the flow's `SignInFlow` object is printed as one line when it starts.
    var json: Bool
    /// Draw the device flow's QR code.
    var qr: Bool
    var environment: [String: String]
    /// The command to run again after a flow's error (`sesamectl sign-in google --device`).
    var retry: String
    /// `reauthenticate` to sign the same account in again (`sesamectl reauth`); nil to sign in.
    var purpose: String? = nil

    func run(_ client: SesameClient) async throws -> Outcome {
        let signals = SignalCancellation()
        defer { signals.stop() }
        let started = StartedFlow()
        let interrupted = try await withThrowingTaskGroup(of: Interruptible.self) { group in
            group.addTask {
                switch kind {
                case .device: .finished(try await device(client) { id in started.id.withLock { $0 = id } })
                case .browser: .finished(try await browser(client) { id in started.id.withLock { $0 = id } })
                }
            }
            group.addTask { .signal(await signals.first()) }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if case .signal(nil) = next { continue }
                return next
            }
            return .signal(nil)
        }
        switch interrupted {
        case .finished(let outcome):
            return outcome
        case .signal(let number):
            if let flowId = started.id.withLock({ $0 }) { try? await client.cancelSignIn(flowId: flowId) }
            StandardError.print("Sign-in cancelled.")
            throw ExitCode(128 + (number ?? SIGINT))
        }
    }

    /// The id of the flow once sesamed started it, for the cancellation.
    private final class StartedFlow: Sendable {
        let id = Mutex<String?>(nil)
    }

    private enum Interruptible: Sendable {
        case finished(InteractiveSignIn.Outcome)
        case signal(Int32?)
    }

    /// The device flow: prompt, then wait.
    func device(_ client: SesameClient, started: @Sendable (String) -> Void) async throws -> Outcome {
        let flow = try await client.startSignIn(
            providerId: providerId, flow: SignInFlowKind.device.rawValue, purpose: purpose)
        started(flow.flowId)
        if json {
            print(flow.json.jsonString)
        } else {
            let colours = isatty(STDOUT_FILENO) == 1
            print(DevicePrompt.lines(for: flow, qr: qr, colours: colours).joined(separator: "\n"))
        }
        fflush(nil)
        return try await waiting(for: flow, label: "Waiting for approval…") {
            try await FlowWait.outcome(of: flow, client: client)
        }
    }

    /// The browser flow: listen on loopback, open the browser at the one-time launch address
    /// (never the provider's URL: a command line is readable by every local user), complete with
    /// what that browser brings back.
    func browser(_ client: SesameClient, started: @Sendable (String) -> Void) async throws -> Outcome {
        let listener = try await LoopbackListener.start()
        var flowId: String?
        do {
            let flow = try await client.startSignIn(
                providerId: providerId, flow: SignInFlowKind.browser.rawValue, redirectUri: listener.redirectUri,
                purpose: purpose)
            flowId = flow.flowId
            started(flow.flowId)
            guard let url = flow.authorizationUrl else {
                throw SesameClientError.protocolError("a browser SignInFlow without authorizationUrl")
            }
            let launch = listener.launchAddress(opening: url, state: flow.state)
            if json {
                var shown = flow
                shown.authorizationUrl = launch
                shown.state = nil
                print(shown.json.jsonString)
            }
            // The browser may come back before the command that opened it exits: listen meanwhile.
            // "opened …" only once a browser started; else the launch address to open by hand.
            let opening = Task { [environment, providerId] in
                if await BrowserLauncher(environment: environment).open(launch) {
                    StandardError.print(BrowserLauncher.openedMessage(providerId: providerId), erasingLine: true)
                    return
                }
                let erase = isatty(STDOUT_FILENO) == 1 ? "\r\u{1B}[2K" : ""
                print(erase + "Open this URL in a browser: \(TerminalText.sanitized(launch))")
                fflush(nil)
            }
            defer { opening.cancel() }
            let outcome = try await waiting(for: flow, label: "Waiting for the browser…") {
                try await FlowWait.firstOf(
                    {
                        switch await listener.next() {
                        case .callback(let callbackUrl)?:
                            return try await client.completeSignIn(flowId: flow.flowId, callbackUrl: callbackUrl)
                        case .stopped(let reason)?:
                            throw BrowserSignInStopped(reason: reason)
                        case nil:
                            throw CancellationError()
                        }
                    },
                    { try await FlowWait.outcome(of: flow, client: client) })
            }
            await listener.close(answering: .signedIn)
            return outcome
        } catch let stopped as BrowserSignInStopped {
            // Nobody may finish this flow now: end it at sesamed too.
            if let flowId { try? await client.cancelSignIn(flowId: flowId) }
            await listener.close()
            StandardError.print(stopped.message(retry: retry))
            throw ExitCode(ExitStatus.failure.rawValue)
        } catch {
            await listener.close(answering: Self.page(for: error, retry: retry))
            throw error
        }
    }

    /// Runs `body` with the waiting indicator on standard error, erased before it returns.
    private func waiting(
        for flow: SesameSignInFlow, label: String, _ body: () async throws -> Outcome
    ) async throws -> Outcome {
        let indicator = WaitingIndicator(label: label, deadline: flow.expiresAt, animated: isatty(STDERR_FILENO) == 1)
            .start()
        do {
            let outcome = try await body()
            await WaitingIndicator.stop(indicator)
            return outcome
        } catch {
            await WaitingIndicator.stop(indicator)
            throw error
        }
    }

    /// The browser's page for a failed sign-in: what the terminal says, in the browser's words.
    static func page(for error: any Error, retry: String) -> CallbackPage {
        guard let error = error as? SesameClientError else { return .cancelled }
        if error.reason == "second-factor-required" { return .secondFactor }
        let report = ErrorReport.make(for: error, socketPath: "sesamed's socket", context: .signInFlow(retry: retry))
        return .failed("The sign-in failed: \(report.message). The terminal says the same.")
    }
}

/// The loopback listener stopped a browser sign-in (``LoopbackStop``); nobody was signed in.
struct BrowserSignInStopped: Error {
    var reason: LoopbackStop

    /// What the terminal says.
    func message(retry: String) -> String {
        let why =
            switch reason {
            case .launchReopened: "its sign-in address was opened a second time"
            case .unboundCallback: "an answer came back to a browser that did not start it"
            }
        return "sesamectl stopped the sign-in because \(why); nobody was signed in. "
            + "Run `\(retry)` again and finish it in the browser it opens."
    }
}
