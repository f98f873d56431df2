import ArgumentParser
import SesameClient

struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign in to an existing account with an email or username and its password.",
        discussion: """
            From a guest, the guest's data is merged into the account (see `sesamectl merges`). The \
            password is read from the terminal or, with --password-stdin, from standard input.
            """)

    @Argument(help: ArgumentHelp("The account's email address or username.", valueName: "email|username"))
    var identifier: String

    @OptionGroup var password: PasswordOptions
    @OptionGroup var options: CommonOptions

    func run() async throws {
        let result = try await options.withClient { client in
            // Reach the daemon before asking for a password that could not be used.
            _ = try await client.hello()
            let secret = try PasswordReader.read(prompt: "Password for \(identifier): ", fromStandardInput: password.passwordStdin)
            return try await client.signIn(identifier: identifier, password: secret)
        }
        options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
    }
}

/// The output of the commands that sign in (`sign-in`, `complete-link`, `sign-in-idp`).
enum SignInResultText {
    static func json(_ result: (state: SesameState, merge: SesameMerge?)) -> String {
        JSONText.object([("merge", result.merge?.json ?? "null"), ("state", result.state.json)])
    }

    static func text(_ result: (state: SesameState, merge: SesameMerge?)) -> String {
        var line = StatusRenderer.oneLine(result.state)
        if let merge = result.merge {
            line += "\nthe guest's data (uid \(merge.fromUid)) will be merged into this account (merge \(merge.mergeId))"
        }
        return line
    }
}
