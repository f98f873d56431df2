import Foundation
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Auth routes: one per operation and path, v3 names as aliases, counters per route")
struct AuthRoutesTests {
    /// Every path of every operation reaches its handler: the answer is the operation's own
    /// (a result, a business error, 501 for the unsupported ones), never the unrouted 404.
    @Test func everyOperationPathIsRouted() async throws {
        try await TestEmulator.with { emu in
            for operation in AuthEndpoints.operations {
                for path in operation.paths {
                    let concrete = path.replacingOccurrences(of: "{project}", with: "demo-project")
                    let method = "\(operation.method)"
                    let answer = try await emu.request(
                        method, "\(emu.authBase)\(concrete)?key=k", body: method == "GET" ? nil : Array("{}".utf8),
                        headers: [("Content-Type", "application/json")])
                    #expect(answer.status != 404, "\(method) \(concrete)")
                }
            }
        }
    }

    @Test func v3NamesAreCountedUnderTheirV1Operation() async throws {
        try await TestEmulator.with { emu in
            let v3 = "\(emu.authBase)/www.googleapis.com/identitytoolkit/v3/relyingparty"
            _ = try await emu.request("POST", "\(v3)/signupNewUser?key=k", body: Array("{}".utf8))
            _ = try await emu.signUpAnonymously()
            let calls = try await emu.request("GET", "\(emu.authBase)/sesame/v1/faults").json["calls"]
            #expect(calls?["accounts:signUp"] == 2)
            #expect(calls?["signupNewUser"] == nil)
        }
    }

    @Test func unknownOperationsAndWrongMethodsAreNotFoundAndNotCounted() async throws {
        try await TestEmulator.with { emu in
            let v1 = "\(emu.authBase)/identitytoolkit.googleapis.com/v1"
            for (method, path) in [
                ("POST", "\(v1)/accounts:frobnicate"), ("GET", "\(v1)/accounts:signUp"),
                ("POST", "\(v1)/accounts"),
                ("POST", "\(emu.authBase)/www.googleapis.com/identitytoolkit/v3/relyingparty/nope"),
            ] {
                let answer = try await emu.request(method, "\(path)?key=k", body: Array("{}".utf8))
                #expect(answer.status == 404, "\(method) \(path)")
                #expect(answer.json["error"]?["status"] == "NOT_FOUND")
            }
            let calls = try await emu.request("GET", "\(emu.authBase)/sesame/v1/faults").json["calls"]
            #expect(calls == .object([:]))
        }
    }
}
