import ArgumentParser
import SesameClient

struct LinkEmailLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "email-link",
        abstract: "Add an email by a sign-in link from `sesamectl send-link`.")

    @Argument(help: ArgumentHelp("The link from the email.", valueName: "url"))
    var link: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The address the link was sent to; needed only when it was requested elsewhere.", valueName: "email"))
    var email: String?

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient(context: .completeLink) {
            try await $0.linkCredential(.emailLink(email: email, link: link))
        }
        options.output(json: state.json, text: StatusRenderer.oneLine(state))
    }
}
