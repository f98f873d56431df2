import ArgumentParser
import Foundation
import SesameClient

struct ReauthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reauth",
        abstract:
            "Prove a recent sign-in (with the password, the account's provider, or a mailed code) before a sensitive change.",
        discussion: """
            Changing the password or the email, removing a second factor and deleting the account may \
            answer that they need a recent sign-in; `reauth` proves one without changing the account. \
            An account with a password is asked for it at the terminal (or it is read with \
            --password-stdin); an account without one signs in again with its provider (google, …), \
            by the same device or browser flow as `sign-in PROVIDER` (--device, --browser). An account \
            with a second factor is asked for the code from the authenticator app too. Where the \
            backend mails one-time codes (Supabase), `reauth --send-code` mails one to the account's \
            address and asks for it (or reads it with --code-stdin; without a terminal it only sends \
            it, for a later `reauth --code-stdin`); `reauth --code` types a code mailed before. \
            Firebase mails no codes.
            """)

    @Flag(name: .customLong("send-code"), help: "Mail a one-time code to the account's address, then ask for it.")
    var sendCode = false

    @Flag(name: .long, help: "Prove it with a code mailed before (asked at the terminal, or --code-stdin).")
    var code = false

    @Flag(name: .long, help: "With a provider: sign in again with a code on any device (device flow).")
    var device = false

    @Flag(name: .long, help: "With a provider: sign in again in this machine's browser.")
    var browser = false

    @OptionGroup var codeInput: CodeOptions
    @OptionGroup var password: PasswordOptions
    @OptionGroup var options: CommonOptions

    /// What the command proves the sign-in with.
    enum Mode: Equatable {
        case password
        case sendCode
        case code
    }

    /// `--code-stdin` alone is a mailed code; with `--password-stdin`, the second factor's code
    /// on the line after the password.
    var mode: Mode {
        if sendCode { return .sendCode }
        return code || (codeInput.codeStdin && !password.passwordStdin) ? .code : .password
    }

    func validate() throws {
        if password.passwordStdin && (sendCode || code) {
            throw ValidationError("--password-stdin proves it with the password; --send-code and --code use a code")
        }
        if device && browser { throw ValidationError("choose one of --device and --browser") }
        if (device || browser) && (sendCode || code || password.passwordStdin) {
            throw ValidationError("--device and --browser sign in again with the provider, not with a password or code")
        }
    }

    func run() async throws {
        let result: SesameReauthentication? = try await options.withClient(context: .reauth) { client in
            _ = try await client.hello()
            switch mode {
            case .password:
                switch Self.proof(for: try await client.state().user, providerWanted: device || browser) {
                case .password: break
                case .provider(let providerId): return try await withProvider(client, providerId)
                case .impossible(let why):
                    StandardError.print(why)
                    throw ExitCode(ExitStatus.failure.rawValue)
                }
                let secret = try PasswordReader.read(
                    prompt: "Password of the signed-in account: ", fromStandardInput: password.passwordStdin)
                return try await withSecondFactor(client) { try await client.reauthenticate(password: secret) }
            case .sendCode:
                _ = try await client.sendReauthenticationCode()
                StandardError.print("mailed a one-time code to the account's address")
                guard codeInput.codeStdin || PasswordReader.hasTerminal else { return nil }
                return try await client.reauthenticate(code: try readCode())
            case .code:
                return try await client.reauthenticate(code: try readCode())
            }
        }
        guard let result else {
            options.output(json: "{\"validUntil\":null,\"codeSent\":true}", text: Self.codeSentText)
            return
        }
        options.output(json: result.json, text: Self.text(result))
    }

    /// An account with a second factor answers the password with a challenge: the code from the
    /// authenticator app finishes the reauthentication.
    private func withSecondFactor(
        _ client: SesameClient, _ body: () async throws -> SesameReauthentication
    ) async throws -> SesameReauthentication {
        do {
            return try await body()
        } catch let error as SesameClientError where error.reason == "second-factor-required" {
            guard let challenge = error.daemonError?.challenge else { throw error }
            _ = try await SecondFactorPrompt(fromStandardInput: codeInput.codeStdin).complete(challenge, client: client)
            return SesameReauthentication(validUntil: nil)
        }
    }

    /// How an account proves a recent sign-in without a code.
    enum Proof: Equatable {
        case password
        case provider(String)
        /// Neither: what to tell the person.
        case impossible(String)
    }

    /// The password when the account has one (unless --device or --browser asks for the
    /// provider), else its first provider sesamed can run a flow for. A guest (or nobody) is
    /// left to sesamed, which answers `requires-account`.
    static func proof(for user: SesameUser?, providerWanted: Bool) -> Proof {
        guard let user, !user.isAnonymous else { return .password }
        let hasPassword = user.providers.contains("password")
        if hasPassword && !providerWanted { return .password }
        let federated = user.providers.filter { !["password", "phone", "custom", "anonymous"].contains($0) }
        if let providerId = federated.first { return .provider(providerId) }
        if hasPassword {
            return .impossible(
                "this account signs in with a password only: run `sesamectl reauth` without --device or --browser")
        }
        return .impossible(
            "this account has neither a password nor a provider to sign in again with (it signed in with a "
                + "custom token): nothing here can prove a recent sign-in; sign out and sign in again the way "
                + "it was made, then run the change right away")
    }

    /// The provider's device or browser flow with purpose `reauthenticate`: the same account
    /// signs in again (another account changes nothing).
    private func withProvider(_ client: SesameClient, _ providerId: String) async throws -> SesameReauthentication {
        let kind: SignInFlowKind =
            device
            ? .device : (browser ? .browser : SignInMode.defaultFlow(environment: ProcessInfo.processInfo.environment))
        StandardError.print("this account signs in with \(providerId): sign in again with it")
        let run = InteractiveSignIn(
            providerId: providerId, kind: kind, json: options.json, qr: true,
            environment: ProcessInfo.processInfo.environment, retry: "sesamectl reauth --\(kind.rawValue)",
            purpose: "reauthenticate")
        _ = try await SecondFactorPrompt(fromStandardInput: codeInput.codeStdin).signIn(
            client, bodyWatchesSignals: true
        ) {
            try await run.run(client)
        }
        return SesameReauthentication(validUntil: nil)
    }

    private func readCode() throws -> String {
        try CodeReader.read(prompt: "Code from the email: ", fromStandardInput: codeInput.codeStdin)
    }

    static let codeSentText =
        "a one-time code was mailed to the account's address: run `sesamectl reauth --code-stdin` with it"

    static func text(_ result: SesameReauthentication) -> String {
        let until = result.validUntil.map { " until \(StatusRenderer.timeWords($0))" } ?? ""
        return "recent sign-in proven\(until): now run the change (change-password, change-email, "
            + "mfa remove, delete-account)"
    }
}
