import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameEmulator

/// The built `sesame-emulator`, when it was built.
private let emulatorBinary = BuiltBinaries.existing("sesame-emulator")

/// `--recent-login-seconds` of the executable (docs/emulator.md, "Running it").
@Suite("The sesame-emulator executable: --recent-login-seconds")
struct ExecutableRecentLoginTests {
    func post(_ url: String, _ body: JSONValue) async throws -> (status: Int, body: JSONValue) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body.serialized()))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), (try? JSONCoding.parse(Array(buffer: bytes))) ?? .null)
    }

    @Test(.enabled(if: emulatorBinary != nil, "sesame-emulator was not built"))
    func anAgedSignInIsRefusedForAPasswordChange() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-recent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let stdoutURL = work.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: emulatorBinary!)
        process.arguments = ["--auth-port", "0", "--database-port", "0", "--recent-login-seconds", "300"]
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        var authBase = ""
        try await eventually("the auth port is printed", timeout: .seconds(30)) {
            let text = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.contains("auth listening on ") }) else {
                return false
            }
            authBase = String(line.split(separator: " ").last ?? "")
            return true
        }
        let v1 = "\(authBase)/identitytoolkit.googleapis.com/v1"
        let user = try await post(
            "\(v1)/accounts:signUp?key=k",
            ["email": "aged@example.com", "password": "secret-pw", "returnSecureToken": true])
        #expect(user.status == 200)
        #expect(try await post("\(authBase)/sesame/v1/faults", ["clockSkewSeconds": 301]).status == 200)
        let refused = try await post(
            "\(v1)/accounts:update?key=k", ["idToken": user.body["idToken"]!, "password": "n3w-secret"])
        #expect(refused.body["error"]?["message"] == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")

        process.terminate()
        try await waitForExit(of: process)
    }

    @Test(.enabled(if: emulatorBinary != nil, "sesame-emulator was not built"))
    func aNegativeWindowIsRefusedAtStart() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: emulatorBinary!)
        process.arguments = ["--auth-port", "0", "--database-port", "0", "--recent-login-seconds", "-1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await waitForExit(of: process)
        #expect(process.terminationStatus != 0)
    }
}
