import ArgumentParser
import SesameClient

struct CompleteLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete-link",
        abstract:
            "Sign in with a link from `sesamectl send-link` (a guest is upgraded, or merged into an existing account).")

    @Argument(help: ArgumentHelp("The link from the email.", valueName: "url"))
    var link: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The address the link was sent to; needed only when it was requested elsewhere.", valueName: "email"))
    var email: String?

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let result = try await options.withClient { try await $0.completeSignInLink(link: link, email: email) }
        options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
    }
}
