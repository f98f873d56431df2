import ArgumentParser
import Foundation
import SesameClient

struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign in: with an email or username and its password, with a provider "
            + "(google, github, …) on this machine's browser or any phone, or with a custom token.",
        discussion: """
            `sign-in EMAIL|USERNAME` asks for the password (from the terminal, or standard input with \
            --password-stdin). `sign-in google|github|apple|microsoft` (or their ids, google.com, …), and \
            `sign-in PROVIDER-ID --device|--browser` for any configured provider, run an interactive flow: \
            --device prints a page, a code and a QR code to open on any phone or computer and waits for \
            the approval; --browser opens this machine's browser ($BROWSER, else xdg-open) and waits for \
            it to come back. Without either, browser when $DISPLAY or $WAYLAND_DISPLAY is set, else device. \
            Ctrl-C cancels the flow (status 130). `sign-in --custom-token-file FILE` (or - for standard \
            input) signs in with a token minted by your project's server. From a guest, the guest's data \
            is merged into the account (see `sesamectl merges`). A username spelled like a provider \
            (google, github.com, …) signs in by its email instead. When the account has a second factor, \
            every way asks for the code from the authenticator app (or reads it with --code-stdin: with \
            --password-stdin, from the line after the password).
            """)

    @Argument(
        help: ArgumentHelp(
            "The account's email address or username, or a provider (google, github, apple, microsoft, or an id).",
            valueName: "email|username|provider"))
    var identifier: String?

    @Flag(name: .long, help: "Sign in with a code on any device (RFC 8628 device flow).")
    var device = false

    @Flag(name: .long, help: "Sign in in this machine's browser (loopback redirect).")
    var browser = false

    @Flag(name: .customLong("no-qr"), help: "Do not draw the QR code of the device flow's page.")
    var noQR = false

    @Option(
        name: .customLong("custom-token-file"),
        help: ArgumentHelp("Sign in with the custom token in this file (- for standard input).", valueName: "file"))
    var customTokenFile: String?

    @OptionGroup var password: PasswordOptions
    @OptionGroup var code: CodeOptions
    @OptionGroup var options: CommonOptions

    /// Finishes a sign-in that needs a second factor.
    var secondFactor: SecondFactorPrompt { SecondFactorPrompt(fromStandardInput: code.codeStdin) }

    func mode(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SignInMode {
        try SignInMode.resolve(
            argument: identifier, device: device, browser: browser, customTokenFile: customTokenFile,
            passwordStdin: password.passwordStdin, noQR: noQR, environment: environment)
    }

    func validate() throws {
        if try mode() == .customToken(path: "-"), code.codeStdin {
            throw ValidationError("--custom-token-file - reads all of standard input: the code cannot follow it there")
        }
    }

    func run() async throws {
        switch try mode() {
        case .password(let identifier):
            try await signInWithPassword(identifier)
        case .customToken(let path):
            let token = try CustomTokenReader.read(path)
            let result = try await options.withClient { client in
                try await SignInOverAccount.refuse(client)
                return try await secondFactor.signIn(client) { try await client.signInWithCustomToken(token) }
            }
            options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
        case .flow(let providerId, let kind):
            let retry =
                "sesamectl sign-in \(identifier ?? providerId)" + (device || browser ? " --\(kind.rawValue)" : "")
            let run = InteractiveSignIn(
                providerId: providerId, kind: kind, json: options.json, qr: !noQR,
                environment: ProcessInfo.processInfo.environment, retry: retry)
            let result = try await options.withClient(context: .signInFlow(retry: retry)) { client in
                try await SignInOverAccount.refuse(client)
                return try await secondFactor.signIn(client, bodyWatchesSignals: true) { try await run.run(client) }
            }
            options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
        }
    }

    private func signInWithPassword(_ identifier: String) async throws {
        let result = try await options.withClient { client in
            // Reach the daemon, and refuse over an account, before asking for a password that
            // could not be used.
            try await SignInOverAccount.refuse(client)
            let secret = try PasswordReader.read(
                prompt: "Password for \(identifier): ", fromStandardInput: password.passwordStdin)
            return try await secondFactor.signIn(client) {
                try await client.signIn(identifier: identifier, password: secret)
            }
        }
        options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
    }
}
