import ArgumentParser
import SesameClient

struct ResetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Email a password-reset link to an account, or complete a reset with its link or code.",
        discussion: """
            `reset-password EMAIL|USERNAME` mails the reset. `reset-password --complete LINK` (quote the \
            link: it holds `&`) or `reset-password --complete CODE --email EMAIL` (where the backend \
            mails codes: Supabase) sets the new password, asked twice at the terminal (or read once with \
            --password-stdin); nobody needs to be signed in. Where the backend changes the password of an \
            account with a second factor only after it (Supabase), the code from the authenticator app is \
            asked too (or read with --code-stdin).
            """)

    @Argument(help: ArgumentHelp("The account's email address or username.", valueName: "email|username"))
    var identifier: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Complete a reset with the link (or the code) from its email.", valueName: "link|code"))
    var complete: String?

    @Option(name: .long, help: ArgumentHelp("The account's address, with a code.", valueName: "email"))
    var email: String?

    @OptionGroup var password: PasswordOptions
    @OptionGroup var code: CodeOptions
    @OptionGroup var options: CommonOptions

    /// What `--complete` holds.
    enum Completion: Equatable {
        case link(String)
        case code(String, email: String)
    }

    /// The completion asked for, or nil to send a reset email.
    func completion() throws -> Completion? {
        guard let complete else {
            guard identifier != nil else {
                throw ValidationError(
                    "give the account's email or username, or --complete LINK|CODE to finish a reset")
            }
            if email != nil || password.passwordStdin {
                throw ValidationError("--email and --password-stdin go with --complete")
            }
            return nil
        }
        if identifier != nil { throw ValidationError("give either EMAIL|USERNAME or --complete, not both") }
        if complete.contains("://") { return .link(complete) }
        guard let email else { throw ValidationError("a reset code needs the account's address: add --email EMAIL") }
        return .code(complete, email: email)
    }

    func validate() throws {
        _ = try completion()
    }

    func run() async throws {
        guard let completion = try completion() else {
            let identifier = identifier ?? ""
            try await options.withClient { try await $0.sendPasswordReset(identifier: identifier) }
            options.output(json: "{}", text: "sent a password-reset email for \(identifier)")
            return
        }
        let account = try await options.withClient(context: .resetPassword) { client in
            _ = try await client.hello()
            let secret = try PasswordReader.read(
                prompt: "New password: ", fromStandardInput: password.passwordStdin, confirm: true)
            do {
                switch completion {
                case .link(let link): return try await client.confirmPasswordReset(link: link, newPassword: secret)
                case .code(let code, let email):
                    return try await client.confirmPasswordReset(code: code, email: email, newPassword: secret)
                }
            } catch let error as SesameClientError where error.reason == "second-factor-required" {
                // The backend sets the password of an account with a second factor only after it.
                guard let challenge = error.daemonError?.challenge else { throw error }
                _ = try await SecondFactorPrompt(fromStandardInput: code.codeStdin).complete(challenge, client: client)
                if case .code(_, let email) = completion { return email }
                return ""
            }
        }
        options.output(
            json: account.isEmpty ? JSONValue.object([:]) : JSONValue.object(["email": .string(account)]),
            text: account.isEmpty
                ? "password changed: sign in with the new password (`sesamectl sign-in EMAIL`)"
                : "password of \(account) changed: sign in with `sesamectl sign-in \(account)`")
    }
}
