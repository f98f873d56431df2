import ArgumentParser
import SesameClient

struct VerifyEmailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-email",
        abstract: "Email a verification link to the account's address; run `sesamectl reload` after opening it.",
        discussion: "A guest has no address to verify: create an account first with `sesamectl sign-up EMAIL`.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await options.withClient(context: .verifyEmail) { try await $0.sendEmailVerification() }
        options.output(json: "{}", text: "sent a verification email; open its link, then run `sesamectl reload`")
    }
}
