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

    /// The socket to use.
    var socketPath: String {
        socket
            ?? SesameSocketPath.resolve(
                environment: ProcessInfo.processInfo.environment,
                fileExists: { FileManager.default.fileExists(atPath: $0) })
    }

    /// Runs `body` with a client and turns its errors into one line on standard error and the
    /// exit status of DESIGN.md.
    func withClient<T>(_ body: (SesameClient) async throws -> T) async throws -> T {
        let path = socketPath
        let client = SesameClient(socketPath: path, clientName: "sesamectl")
        do {
            let value = try await body(client)
            await client.close()
            return value
        } catch let error as SesameClientError {
            await client.close()
            let report = ErrorReport.make(for: error, socketPath: path)
            StandardError.print(report.message)
            throw ExitCode(report.status.rawValue)
        } catch {
            await client.close()
            throw error
        }
    }

    /// Prints `json` in JSON mode, else `text`.
    func output(json jsonText: @autoclosure () -> String, text: @autoclosure () -> String) {
        print(json ? jsonText() : text())
    }
}
