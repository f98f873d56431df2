import ArgumentParser
import SesameClient

struct CompleteLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete-link",
        abstract:
            "Sign in with the link (or one-time code) from `sesamectl send-link`; a guest is upgraded, or merged into an existing account.",
        discussion: """
            Give the link from the email: `sesamectl complete-link 'URL'` (quote it: it holds `&`). \
            Where the backend also mails a one-time code (Supabase), you can type the code instead: \
            `sesamectl complete-link --code CODE --email EMAIL`. Firebase sends links only. When the \
            account has a second factor, asks for the code from the authenticator app (or reads it with \
            --code-stdin).
            """)

    @Argument(help: ArgumentHelp("The link from the email (omit it with --code).", valueName: "url"))
    var link: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The one-time code from the email instead of its link (Supabase); needs --email.", valueName: "code"))
    var code: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The address the link or code was sent to; for a link, needed only when it was requested elsewhere.",
            valueName: "email"))
    var email: String?

    @OptionGroup var secondFactor: CodeOptions
    @OptionGroup var options: CommonOptions

    func validate() throws {
        switch (link, code) {
        case (nil, nil):
            throw ValidationError(
                "give the link from the email (`sesamectl complete-link URL`) or its code (`--code CODE --email EMAIL`)"
            )
        case (.some, .some):
            throw ValidationError("give either the link or --code, not both")
        case (nil, .some):
            if email == nil {
                throw ValidationError("--code needs the address it was sent to: add --email EMAIL")
            }
        case (.some, nil):
            break
        }
    }

    func run() async throws {
        let prompt = SecondFactorPrompt(fromStandardInput: secondFactor.codeStdin)
        let result =
            if let code, let email {
                try await options.withClient(context: .completeCode) { client in
                    try await SignInOverAccount.refuse(client)
                    return try await prompt.signIn(client) {
                        try await client.completeSignInLink(email: email, code: code)
                    }
                }
            } else {
                try await options.withClient(context: .completeLink) { client in
                    try await SignInOverAccount.refuse(client)
                    return try await prompt.signIn(client) {
                        try await client.completeSignInLink(link: link ?? "", email: email)
                    }
                }
            }
        options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
    }
}
