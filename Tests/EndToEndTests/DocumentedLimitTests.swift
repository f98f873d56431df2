import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 35: the daemon against the emulator's per-address limits (`--rate-limit`, the services'
/// own 429s, no `Retry-After`), not an injected fault: it reports `rate-limited` naming the
/// operation, keeps serving what it holds, and comes back by itself when the bucket refills.
@Suite("sesamed under the emulator's per-address limits", .serialized, .timeLimit(.minutes(3)))
struct DocumentedLimitTests {
    @Test(
        "Supabase: refreshes over token_refresh get GoTrue's 429; rate-limited (refresh), the token still served, online again by itself"
    )
    func refreshLimited() async throws {
        // One refresh every 2 s, burst 1: the second forced refresh in a row is refused.
        let emulator = try await EmulatorProcess.start(
            backend: .supabase, arguments: ["--rate-limit", "token_refresh=1/2:1"])
        let daemon: DaemonProcess
        do {
            daemon = try await DaemonProcess.start(emulator: emulator)
        } catch {
            await emulator.stop()
            throw error
        }
        do {
            let client = daemon.client()
            defer { Task { await client.close() } }
            let uid = try #require(try await client.state().user?.uid)
            _ = try await client.idToken(forceRefresh: true)
            let held = try await client.idToken()
            let refused = await #expect(throws: SesameClientError.self) {
                _ = try await client.idToken(forceRefresh: true)
            }
            #expect(refused?.reason == "too-many-requests")
            let limited = try await client.state()
            #expect(limited.connectivity == .rateLimited)
            #expect(limited.rateLimit?.operation == "refresh")
            #expect(try await client.idToken().token == held.token)
            let status = try await daemon.ctl(["status"])
            #expect(status.stdout.contains("rate-limited: the backend limited refresh"), "\(status.stdout)")
            try await eventually("online again by itself, same user", timeout: .seconds(30)) {
                let state = try await client.state()
                return state.connectivity == .online && state.rateLimit == nil && state.user?.uid == uid
            }
        } catch {
            await daemon.cleanUp()
            await emulator.stop()
            throw error
        }
        await daemon.cleanUp()
        await emulator.stop()
    }

    @Test(
        "Firebase: a second machine behind the same address over account_creation waits signed out, rate-limited (signInAnonymously), and gets its guest by itself when the bucket refills"
    )
    func accountCreationLimited() async throws {
        // One new account every 4 s, burst 1: the first machine takes it.
        let emulator = try await EmulatorProcess.start(
            backend: .firebase, arguments: ["--rate-limit", "account_creation=1/4:1"])
        var daemons: [DaemonProcess] = []
        do {
            daemons.append(try await DaemonProcess.start(emulator: emulator))
            daemons.append(try await DaemonProcess.start(emulator: emulator, waitFor: nil))
            let second = daemons[1].client()
            defer { Task { await second.close() } }
            try await eventually("the second machine is told the limit", timeout: .seconds(20)) {
                let state = try await second.state()
                return state.connectivity == .rateLimited && state.rateLimit?.operation == "signInAnonymously"
                    && state.status == .signedOut
            }
            try await eventually("its guest comes by itself", timeout: .seconds(60)) {
                let state = try await second.state()
                return state.status == .anonymous && state.connectivity == .online
            }
        } catch {
            for daemon in daemons { await daemon.cleanUp() }
            await emulator.stop()
            throw error
        }
        for daemon in daemons { await daemon.cleanUp() }
        await emulator.stop()
    }
}
