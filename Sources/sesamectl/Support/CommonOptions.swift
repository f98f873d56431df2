import ArgumentParser
import Foundation
import SesameClient

/// The options every command takes after its name.
struct CommonOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The daemon's socket (default: $SESAME_SOCKET, else the user instance's socket when it exists, else /run/sesame/sesamed.sock).",
            valueName: "path"))
    var socket: String?

    @Flag(name: .long, help: "Print the protocol's JSON instead of text for people.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds to wait for sesamed's answer before giving up with status 69 (default: 5 for status and merges list, 30 for commands that reach the backend; 0 waits forever).",
            valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        if let timeout, !(timeout >= 0 && timeout <= 86_400) {
            throw ValidationError("--timeout must be between 0 and 86400 seconds")
        }
    }

    /// The request timeout for a command of kind `wait`: `--timeout` when given (0: none),
    /// else the kind's default.
    func requestTimeout(_ wait: AnswerWait) -> Duration? {
        guard let timeout else { return wait.defaultTimeout }
        return timeout == 0 ? nil : .milliseconds(Int64((timeout * 1000).rounded()))
    }

    /// The socket to use.
    var socketPath: String {
        socket
            ?? SesameSocketPath.resolve(
                environment: ProcessInfo.processInfo.environment,
                fileExists: { FileManager.default.fileExists(atPath: $0) })
    }

    /// Runs `body` with a client and turns its errors into one line on standard error and the
    /// exit status of DESIGN.md.
    /// - Parameters:
    ///   - wait: how long the command's calls may take by default.
    ///   - context: the command, where its error advice differs.
    func withClient<T>(
        waiting wait: AnswerWait = .backend, context: ErrorContext = .general,
        _ body: (SesameClient) async throws -> T
    ) async throws -> T {
        let path = socketPath
        let client = SesameClient(socketPath: path, clientName: "sesamectl", requestTimeout: requestTimeout(wait))
        do {
            let value = try await body(client)
            await client.close()
            return value
        } catch let error as SesameClientError {
            await client.close()
            let report = ErrorReport.make(for: error, socketPath: path, context: context)
            StandardError.print(report.message)
            throw ExitCode(report.status.rawValue)
        } catch {
            await client.close()
            throw error
        }
    }

    /// Prints `json` in JSON mode, else `text` with its control characters made visible.
    func output(json jsonText: @autoclosure () -> String, text: @autoclosure () -> String) {
        print(json ? jsonText() : TerminalText.sanitized(text()))
    }

    /// Prints `json` as one line of compact JSON in JSON mode, else `text` (made visible so).
    func output(json jsonValue: @autoclosure () -> JSONValue, text: @autoclosure () -> String) {
        print(json ? jsonValue().jsonString : TerminalText.sanitized(text()))
    }
}
