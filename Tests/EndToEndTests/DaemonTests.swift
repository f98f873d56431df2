import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamed` as a process against `sesame-emulator` as a process (issue: the daemon): a backend
/// that is down or failing, SIGTERM, systemd's notify socket, and the backend on the wire.
@Suite("sesamed end to end", .serialized, .timeLimit(.minutes(3)))
struct DaemonTests {
    @Test("backend down: a valid token is still served; connectivity goes offline and back")
    func backendDown() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let uid = try await client.state().user?.uid
        try await emulator.faults(["down": true])

        let held = try await client.idToken(minValidity: 3599)
        #expect(held.uid == uid)
        do {
            _ = try await client.idToken(forceRefresh: true)
            Issue.record("a forced refresh succeeded while the backend was down")
        } catch let error as SesameClientError {
            #expect(error.code == 2000)
            #expect(error.reason == "network-request-failed")
        }
        try await eventually("connectivity is offline") { try await client.state().connectivity.rawValue == "offline" }

        try await emulator.faults(["down": false])
        _ = try await client.idToken(forceRefresh: true)
        #expect(try await client.state().connectivity.rawValue == "online")
        #expect(try await client.state().user?.uid == uid)
    }

    @Test("backend answering 503: backend-unavailable; answering garbage: the session is kept")
    func backendErrors() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let uid = try await client.state().user?.uid
        try await emulator.faults(["failNext": 1, "failStatus": 503, "pathPrefix": "/securetoken.googleapis.com"])
        do {
            _ = try await client.idToken(forceRefresh: true)
            Issue.record("no error")
        } catch let error as SesameClientError {
            #expect(error.reason == "backend-unavailable")
        }
        try await emulator.faults([
            "failNext": 1, "failStatus": 429, "failMessage": "TOO_MANY_ATTEMPTS_TRY_LATER",
            "pathPrefix": "/securetoken.googleapis.com",
        ])
        do {
            _ = try await client.idToken(forceRefresh: true)
            Issue.record("no error")
        } catch let error as SesameClientError {
            #expect(error.reason == "too-many-requests")
        }
        // A 200 whose body is not a token answer: garbage, so transient; the session is kept.
        try await emulator.faults([
            "failNext": 1, "failStatus": 200, "failMessage": "not what you expected",
            "pathPrefix": "/securetoken.googleapis.com",
        ])
        do {
            _ = try await client.idToken(forceRefresh: true)
            Issue.record("no error")
        } catch let error as SesameClientError {
            #expect(error.reason == "backend-unavailable")
            #expect(error.code == 2000)
        }
        _ = try await client.idToken(forceRefresh: true)
        #expect(try await client.state().user?.uid == uid)
        #expect(try await client.state().status.rawValue == "anonymous")
    }

    @Test("SIGTERM: subscribers hear shutdown, the daemon exits 0")
    func sigterm() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let notifications = client.notifications
        let heard = Task {
            for try await notification in notifications {
                if case .shutdown = notification.event { return true }
            }
            return false
        }
        _ = try await client.state()
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await daemon.stop() == 0)
        #expect(try await heard.value)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test("systemd hears READY, STATUS, WATCHDOG and STOPPING on NOTIFY_SOCKET")
    func notifySocket() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let directory = try makeTemporaryDirectory("n")
        let listener = try NotifyListener(path: directory + "/notify")
        let daemon = try await DaemonProcess.start(
            emulator: emulator, environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000"],
            directory: directory)
        defer { Task { await daemon.cleanUp() } }
        try await listener.waitFor("READY=1")
        try await listener.waitFor("STATUS=anonymous uid ")
        try await listener.waitFor(", token valid for")
        try await listener.waitFor("WATCHDOG=1")
        #expect(try await daemon.stop() == 0)
        try await listener.waitFor("STOPPING=1")
        let ready = try #require(listener.messages().firstIndex { $0.contains("READY=1") })
        let stopping = try #require(listener.messages().firstIndex { $0.contains("STOPPING=1") })
        #expect(ready < stopping)
    }

    @Test("STATUS= holds no personal data, and none is sent after STOPPING=1")
    func notifyStatusPrivacy() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let directory = try makeTemporaryDirectory("p")
        let listener = try NotifyListener(path: directory + "/notify")
        let daemon = try await DaemonProcess.start(
            emulator: emulator, environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000"],
            directory: directory)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        let account = try await client.createAccount(email: "private.person@example.com", password: "secret12")
        _ = try await client.updateProfile(displayName: "Private Person")
        let uid = try #require(account.user?.uid)
        try await listener.waitFor("STATUS=authenticated uid \(uid.prefix(8))")
        try await listener.waitFor("WATCHDOG=1")
        #expect(try await daemon.stop() == 0)
        try await listener.waitFor("STOPPING=1")
        let messages = listener.messages()
        #expect(!messages.contains { $0.contains("private.person") || $0.contains("Private Person") })
        let stopping = try #require(messages.firstIndex { $0.contains("STOPPING=1") })
        let afterStopping =
            messages[stopping].components(separatedBy: "STOPPING=1").dropFirst().joined()
            + messages[(stopping + 1)...].joined(separator: "\n")
        #expect(!afterStopping.contains("STATUS="))
    }
}
