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
        // The harness's launcher (ChildProcess), as every other test that runs the binary.
        let emulator = try await EmulatorChild.start(arguments: ["--recent-login-seconds", "300"])
        let authBase = "http://" + emulator.authHost
        let v1 = "\(authBase)/identitytoolkit.googleapis.com/v1"
        let user = try await post(
            "\(v1)/accounts:signUp?key=k",
            ["email": "aged@example.com", "password": "secret-pw", "returnSecureToken": true])
        #expect(user.status == 200)
        #expect(try await post("\(authBase)/sesame/v1/faults", ["clockSkewSeconds": 301]).status == 200)
        let refused = try await post(
            "\(v1)/accounts:update?key=k", ["idToken": user.body["idToken"]!, "password": "n3w-secret"])
        #expect(refused.body["error"]?["message"] == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        await emulator.stop()
    }

    @Test(.enabled(if: emulatorBinary != nil, "sesame-emulator was not built"))
    func aNegativeWindowIsRefusedAtStart() async throws {
        let result = try await runCommand(
            emulatorBinary!, ["--auth-port", "0", "--database-port", "0", "--recent-login-seconds", "-1"])
        #expect(result.status != 0)
    }
}
