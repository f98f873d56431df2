import SesameLocalAPI
import Testing

@testable import sesamectl

/// How sesamectl reads its command line before ArgumentParser does: global options before the
/// command, unknown commands with a suggestion, and which usage errors point at `--help`.
@Suite("sesamectl arguments")
struct SesameCtlArgumentsTests {
    let line = SesameCtl.commandLine

    @Test func theCommandTableIsSesamectls() {
        #expect(line.commands["status"] == [])
        #expect(line.commands["username"]?.sorted() == ["check", "set"])
        #expect(line.commands["help"] == [])
    }

    @Test func globalOptionsBeforeTheCommandMoveAfterIt() {
        #expect(line.resolve(["--socket", "/s", "status"]) == .parse(["status", "--socket", "/s"]))
        #expect(line.resolve(["--socket=/s", "--json", "status"]) == .parse(["status", "--socket=/s", "--json"]))
        #expect(
            line.resolve(["--json", "--timeout", "3", "username", "set", "bob"])
                == .parse(["username", "set", "--json", "--timeout", "3", "bob"]))
        #expect(line.resolve(["status", "--socket", "/s"]) == .parse(["status", "--socket", "/s"]))
        // Not a global option: left for ArgumentParser to judge.
        for arguments in [["--version"], ["--help"], ["--frob", "status"], [], ["--socket"]] {
            #expect(line.resolve(arguments) == .parse(arguments), "\(arguments)")
        }
    }

    @Test func anUnknownCommandGetsTheNearestName() {
        #expect(line.resolve(["stauts"]) == .unknownCommand(word: "stauts", path: [], suggestion: "status"))
        #expect(
            line.resolve(["--json", "sign-inn", "x"])
                == .unknownCommand(word: "sign-inn", path: [], suggestion: "sign-in"))
        #expect(line.resolve(["delete"]) == .unknownCommand(word: "delete", path: [], suggestion: "delete-account"))
        #expect(line.resolve(["frobnicate"]) == .unknownCommand(word: "frobnicate", path: [], suggestion: nil))
        #expect(
            line.resolve(["merges", "lsit"]) == .unknownCommand(word: "lsit", path: ["merges"], suggestion: "list"))
        #expect(
            line.resolve(["username", "sett", "bob"])
                == .unknownCommand(word: "sett", path: ["username"], suggestion: "set"))
        #expect(
            CommandLineArguments.message(word: "stauts", path: [], suggestion: "status")
                == "unknown command 'stauts': did you mean `sesamectl status`? (`sesamectl --help` lists the commands)")
        #expect(
            CommandLineArguments.message(word: "x", path: ["merges"], suggestion: nil)
                == "unknown command 'x': `sesamectl merges --help` lists the commands")
    }

    @Test func editDistance() {
        #expect(CommandLineArguments.editDistance("status", "status") == 0)
        #expect(CommandLineArguments.editDistance("stauts", "status") == 1)
        #expect(CommandLineArguments.editDistance("lsit", "list") == 1)
        #expect(CommandLineArguments.editDistance("abc", "") == 3)
        #expect(CommandLineArguments.editDistance("", "abc") == 3)
        #expect(CommandLineArguments.editDistance("token", "tokens") == 1)
    }

    @Test func onlyTheParsersOwnErrorsPointAtHelp() {
        #expect(
            SesameCtl.usageMessage("Error: Unknown option '--frob'", command: ["status"])
                == "unknown option '--frob' (see `sesamectl status --help`)")
        #expect(
            SesameCtl.usageMessage("Error: Missing expected argument '<email>'\nHelp: …", command: ["sign-in"])
                == "missing expected argument '<email>' (see `sesamectl sign-in --help`)")
        #expect(
            SesameCtl.usageMessage("Error: --min-validity must not be negative", command: ["token"])
                == "--min-validity must not be negative")
        #expect(
            SesameCtl.usageMessage("Error: no terminal to read the password from: pass --password-stdin and pipe it in")
                == "no terminal to read the password from: pass --password-stdin and pipe it in")
    }

    @Test func theVersionIsTheDaemons() {
        #expect(SesameCtl.versionText == "sesamectl " + SesameVersion.current)
    }
}
