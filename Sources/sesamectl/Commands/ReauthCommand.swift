import ArgumentParser
import Foundation
import SesameClient

struct ReauthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reauth",
        abstract: "Prove a recent sign-in (with the password, or a mailed code) before a sensitive change.",
        discussion: """
            Changing the password or the email, removing a second factor and deleting the account may \
            answer that they need a recent sign-in; `reauth` proves one without changing the account. \
            It asks for the password at the terminal (or reads it with --password-stdin), and for an \
            account with a second factor the code from the authenticator app. Where the \
            backend mails one-time codes (Supabase), `reauth --send-code` mails one to the account's \
            address and asks for it (or reads it with --code-stdin; without a terminal it only sends \
            it, for a later `reauth --code-stdin`); `reauth --code` types a code mailed before. \
            Firebase mails no codes: use the password, or `sesamectl sign-in PROVIDER` for an account \
            that signs in with a provider.
            """)

    @Flag(name: .customLong("send-code"), help: "Mail a one-time code to the account's address, then ask for it.")
    var sendCode = false

    @Flag(name: .long, help: "Prove it with a code mailed before (asked at the terminal, or --code-stdin).")
    var code = false

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
    }

    func run() async throws {
        let result: SesameReauthentication? = try await options.withClient(context: .reauth) { client in
            _ = try await client.hello()
            switch mode {
            case .password:
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
