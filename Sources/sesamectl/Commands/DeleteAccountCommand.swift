import ArgumentParser
import Foundation
import SesameClient

struct DeleteAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-account",
        abstract: "Delete the signed-in account (guest or not) at the backend, for good; a fresh guest follows.",
        discussion: """
            Asks first: on a terminal, type the account's email address (or username) to confirm, or \
            `y` for a guest. Without a terminal (scripts), add --yes; otherwise nothing is deleted and \
            the exit status is 2.
            """)

    @Flag(name: .long, help: "Delete without asking (needed when standard input is not a terminal).")
    var yes = false

    @OptionGroup var options: CommonOptions

    func run() async throws {
        if !yes { try await confirm() }
        let state = try await options.withClient { try await $0.deleteAccount() }
        options.output(json: state.json, text: "account deleted; now " + StatusRenderer.oneLine(state))
    }

    /// Asks on the terminal; throws unless the person confirms.
    private func confirm() async throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError(
                "delete-account deletes the account for good and asks first, but standard input is not a terminal: "
                    + "add --yes to delete without asking")
        }
        let state = try await options.withClient(waiting: .daemon) { try await $0.state() }
        // Nobody signed in: nothing to confirm; the daemon's answer (no-current-user) says so.
        guard let question = DeleteConfirmation(state: state) else { return }
        FileHandle.standardError.write(Data(question.prompt.utf8))
        let answer = readLine(strippingNewline: true) ?? ""
        guard question.accepts(answer) else {
            StandardError.print("not deleted: the answer did not match (run it again, or add --yes)")
            throw ExitCode(ExitStatus.failure.rawValue)
        }
    }
}
