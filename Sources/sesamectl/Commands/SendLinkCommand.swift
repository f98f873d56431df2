import ArgumentParser
import SesameClient

struct SendLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send-link",
        abstract:
            "Email a sign-in link (passwordless); finish with `sesamectl complete-link URL` (or `--code CODE --email EMAIL`)."
    )

    @Argument(help: "The address to send the link to.")
    var email: String

    @Option(name: .long, help: ArgumentHelp("Where the link leads after sign-in.", valueName: "url"))
    var continueUrl: String?

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let sent = try await options.withClient { try await $0.sendSignInLink(email: email, continueUrl: continueUrl) }
        options.output(
            json: JSONValue.object(["email": .string(sent)]),
            text: "sent a sign-in link to \(sent): run `sesamectl complete-link 'URL'` with the link from the email "
                + "(Supabase: or `sesamectl complete-link --code CODE --email \(sent)` with its code)")
    }
}
