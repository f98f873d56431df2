import ArgumentParser
import SesameClient

struct SendLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send-link",
        abstract: "Email a sign-in link (passwordless); finish with `sesamectl complete-link URL`.")

    @Argument(help: "The address to send the link to.")
    var email: String

    @Option(name: .long, help: ArgumentHelp("Where the link leads after sign-in.", valueName: "url"))
    var continueUrl: String?

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let sent = try await options.withClient { try await $0.sendSignInLink(email: email, continueUrl: continueUrl) }
        options.output(
            json: JSONText.object([("email", JSONText.quote(sent))]),
            text: "sent a sign-in link to \(sent): open it, or run `sesamectl complete-link URL` with its address")
    }
}
