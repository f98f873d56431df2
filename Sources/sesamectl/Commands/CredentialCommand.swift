import ArgumentParser
import Foundation
import SesameClient

struct CredentialCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credential",
        abstract: "A git credential helper: answers `get` with the ID token as the password, for listed hosts only.",
        discussion: """
            Set it up per remote: git config --global credential.https://git.example.com.helper '!/usr/bin/sesamectl credential' \
            (the full path: git runs the helper with sh, which sees no alias; under make run, .build/debug/sesamectl \
            from the repository's root as an absolute path) and list the host in [credential] hosts = ["git.example.com"] of ~/.config/sesame/sesamectl.toml or \
            /etc/sesame/sesamectl.toml. Nothing is handed out for a host that is not listed (the list is empty by \
            default), nor over plain HTTP except to a loopback address; git's terminal is told why. The user name is `sesame-id-token`; the \
            server reads the password as an ID token. `store` and `erase` are accepted and do nothing: the daemon \
            keeps the session.
            """)

    @Argument(help: ArgumentHelp("What git asks: get, store or erase.", valueName: "operation"))
    var operation: String

    @OptionGroup var options: CommonOptions

    func validate() throws {
        guard ["get", "store", "erase"].contains(operation) else {
            throw ValidationError("the operation must be get, store or erase (git passes it)")
        }
    }

    func run() async throws {
        var input = ""
        while let line = readLine(strippingNewline: true) {
            if line.isEmpty { break }
            input += line + "\n"
        }
        guard operation == "get" else { return }
        let request = CredentialRequest(parsing: input)
        let settings: CtlConfiguration
        do {
            settings = try CtlConfiguration.load(environment: ProcessInfo.processInfo.environment)
        } catch {
            StandardError.print("sesamectl credential: \(error.message)")
            throw ExitCode(ExitStatus.failure.rawValue)
        }
        // A refused host gets no answer, so git goes on to its other helpers or asks; the
        // person at git's terminal is told why (git shows a helper's standard error).
        if let refusal = request.refusal(by: settings.credentialHosts) {
            StandardError.print("credential: \(refusal)")
            return
        }
        let token = try await options.withClient { try await $0.idToken() }
        FileHandle.standardOutput.write(Data(CredentialRequest.answer(token: token.token).utf8))
    }
}
