import ArgumentParser
import SesameClient

struct HelpManCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "help-man",
        abstract: "Print sesamectl's man page (roff) built from the commands' definitions.",
        discussion: "Install it with `sesamectl help-man > /usr/local/share/man/man1/sesamectl.1`.",
        shouldDisplay: false)

    func run() {
        print(ManualPage.render(), terminator: "")
    }
}
