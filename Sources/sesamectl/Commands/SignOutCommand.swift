import ArgumentParser
import SesameClient

struct SignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-out",
        abstract: "Sign out; a fresh guest session follows.",
        discussion: """
            Signing out a guest deletes its data for good, so it needs --reset. \
            --others ends the account's sessions on other machines and apps and keeps this one \
            signed in; --everywhere ends them all, this one included (for a lost laptop). \
            Firebase cannot end other sessions from a client: see docs/providers.md, "Sign-out scopes".
            """)

    /// `signOut`'s `scope`, as one of three flags.
    enum Scope: String, EnumerableFlag {
        case local, others, everywhere

        static func help(for value: Self) -> ArgumentHelp? {
            switch value {
            case .local: "Sign out this machine only."
            case .others: "End the account's other sessions; this machine stays signed in."
            case .everywhere: "End every session of the account, this machine's included."
            }
        }
    }

    @Flag(name: .long, help: "Confirm that signing out a guest deletes its data.")
    var reset = false

    @Flag var scope: Scope = .local

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let scope = self.scope
        let state = try await options.withClient(context: .signOut) {
            try await $0.signOut(reset: reset, scope: scope == .local ? nil : scope.rawValue)
        }
        let text =
            switch scope {
            case .local: "signed out; now "
            case .others: "ended the account's other sessions; still "
            case .everywhere: "signed out everywhere; now "
            }
        options.output(json: state.json, text: text + StatusRenderer.oneLine(state))
    }
}
