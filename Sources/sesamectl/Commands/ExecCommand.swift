import ArgumentParser
import Foundation
import SesameClient

#if canImport(Glibc)
import Glibc
#endif

struct ExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command with a fresh ID token in its environment ($SESAME_ID_TOKEN).",
        discussion: """
            Example: sesamectl exec -- sh -c 'curl -H "Authorization: Bearer $SESAME_ID_TOKEN" https://api.example.com/me' \
            (single quotes, so that the command's own shell reads the variable). The token is never put on a command line (visible to every user in ps); the environment of a \
            process is readable only by its owner and root. sesamectl replaces itself with the command, so \
            its exit status and signals are the command's. When sesamed cannot be reached, nothing runs and \
            the exit status is 69; a command that cannot be found is 127, one that cannot run 126.
            """)

    @Option(name: .long, help: ArgumentHelp("The environment variable to set.", valueName: "name"))
    var env = "SESAME_ID_TOKEN"

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Seconds the token must stay valid (daemon default: 300).", valueName: "seconds"))
    var minValidity: Int?

    @OptionGroup var options: CommonOptions

    @Argument(
        parsing: .postTerminator, help: ArgumentHelp("The command and its arguments, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else {
            throw ValidationError("name the command to run after --: sesamectl exec -- CMD ARGS…")
        }
        guard Self.isVariableName(env) else {
            throw ValidationError("--env must be a variable name (letters, digits and _, not starting with a digit)")
        }
        if let minValidity, minValidity < 0 { throw ValidationError("--min-validity must not be negative") }
    }

    func run() async throws {
        let token = try await options.withClient { try await $0.idToken(minValidity: minValidity) }
        setenv(env, token.token, 1)
        let arguments = command.map { strdup($0) } + [nil]
        ChildSignals.restoreBeforeExec()
        execvp(command[0], arguments)
        let failure = errno
        StandardError.print("exec: cannot run \(command[0]): \(String(cString: strerror(failure)))")
        throw ExitCode(failure == ENOENT ? 127 : 126)
    }

    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        }
    }
}
