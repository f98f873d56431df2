import ArgumentParser
import Foundation
import SesameClient
import Testing

@testable import sesamectl

@Suite("sesamectl access and watch: requests and grants")
struct SesameCtlAccessTests {
    static let request = SesameAccessRequest(
        requestId: "ar-1", role: "reader", reason: "sync\u{1b}[2J notes", uid: 1000, user: "ann", pid: 42,
        executable: "/usr/bin/notes", unit: "app-notes@1.service", flatpakAppId: nil,
        expiresAt: Date(timeIntervalSince1970: 1_800_000_000))

    @Test("a request names the program as the daemon read it, its reason quoted; control characters shown")
    func requestLine() {
        let notification = SesameNotification(
            event: .accessRequestsChanged([Self.request]), sequence: 12, jsonLine: nil)
        let line = NotificationRenderer.line(for: notification, json: false)
        #expect(line?.hasPrefix("#12 accessRequestsChanged: ar-1 asks for reader: /usr/bin/notes") == true)
        #expect(line?.contains("(unit app-notes@1.service, uid 1000 ann, pid 42)") == true)
        #expect(line?.contains("\u{1b}") == false)
        let none = SesameNotification(event: .accessRequestsChanged([]), sequence: 13, jsonLine: nil)
        #expect(NotificationRenderer.line(for: none, json: false) == "#13 accessRequestsChanged: no request open")
    }

    @Test("grants say for how long")
    func grantLine() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let connection = SesameAccessGrant(
            grantId: "g-1", role: "reader", remember: "connection", uid: 1000, user: "ann",
            executable: "/usr/bin/notes", pid: 42, grantedAt: date)
        #expect(
            AccessText.grant(connection) == "g-1 reader, for one connection (pid 42): /usr/bin/notes (uid 1000 ann)")
        var always = connection
        always.remember = "always"
        always.pid = nil
        #expect(AccessText.grant(always) == "g-1 reader, always: /usr/bin/notes (uid 1000 ann)")
    }

    @Test("the commands parse: allow with --remember, deny, revoke")
    func parse() throws {
        let allow = try AccessAllowCommand.parse(["ar-1", "--remember", "boot"])
        #expect(allow.requestId == "ar-1")
        #expect(allow.remember == .boot)
        #expect(try AccessAllowCommand.parse(["ar-1"]).remember == .connection)
        #expect(throws: (any Error).self) { try AccessAllowCommand.parse(["ar-1", "--remember", "forever"]) }
        #expect(try AccessDenyCommand.parse(["ar-2"]).requestId == "ar-2")
        #expect(try AccessRevokeCommand.parse(["g-1"]).grantId == "g-1")
    }
}
