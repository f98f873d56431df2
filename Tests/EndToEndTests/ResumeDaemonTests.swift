import Foundation
import SesameTesting
import Testing

/// Issue 36, fresh at resume, over the real daemon: a private D-Bus of the test's own
/// (`SESAME_LOGIND_BUS_ADDRESS`) with a fake logind that emits `PrepareForSleep`. The real
/// daemon cannot be put to sleep for 8 hours, so its token is made "within the margin" at once
/// instead (`session.refresh_margin` of a whole token lifetime: the daemon plans its own refresh
/// at half of it, 30 min away); the 8 hours themselves are simulated on an injected clock in
/// ResumeServiceTests.
@Suite("sesamed fresh at resume", .serialized, .timeLimit(.minutes(2)), .enabled(if: PrivateBus.isAvailable))
struct ResumeDaemonTests {
    @Test("PrepareForSleep(true) refreshes nothing; at (false) the token within the margin is refreshed within 2 s")
    func refreshedAtResume() async throws {
        let bus = try await PrivateBus.start()
        do {
            let emulator = try await EmulatorProcess.start()
            let daemon: DaemonProcess
            do {
                daemon = try await DaemonProcess.start(
                    emulator: emulator, settings: ["session": ["refresh_margin": "3600"]],
                    environment: ["SESAME_LOGIND_BUS_ADDRESS": bus.address])
            } catch {
                await emulator.stop()
                throw error
            }
            do {
                try await eventually("the daemon watches logind") {
                    daemon.log.contains("Watching logind for suspend and resume")
                }
                let logind = try FakeLogind(address: bus.address)
                let before = try await emulator.refreshCount()
                try logind.suspend()
                try await eventually("the daemon heard the suspend") {
                    daemon.log.contains("The machine is going to sleep")
                }
                #expect(try await emulator.refreshCount() == before, "nothing is refreshed at suspend")
                let resumed = ContinuousClock.now
                try logind.resume()
                try await eventually("the token refreshed", timeout: .seconds(5)) {
                    try await emulator.refreshCount() > before
                }
                let elapsed = ContinuousClock.now - resumed
                #expect(elapsed <= .seconds(2), "refreshed \(elapsed) after the resume signal")
            } catch {
                await daemon.cleanUp()
                await emulator.stop()
                throw error
            }
            await daemon.cleanUp()
            await emulator.stop()
        } catch {
            await bus.stop()
            throw error
        }
        await bus.stop()
    }

    @Test("no bus at SESAME_LOGIND_BUS_ADDRESS: the daemon serves as before and says why once, at debug")
    func withoutLogind() async throws {
        let emulator = try await EmulatorProcess.start()
        let daemon: DaemonProcess
        do {
            daemon = try await DaemonProcess.start(
                emulator: emulator, environment: ["SESAME_LOGIND_BUS_ADDRESS": "unix:path=/nonexistent/sesame-bus"])
        } catch {
            await emulator.stop()
            throw error
        }
        do {
            try await eventually("the daemon said it does not watch logind") {
                daemon.log.contains("Not watching for suspend and resume (no logind)")
            }
            #expect(daemon.log.components(separatedBy: "Not watching for suspend and resume").count == 2)
            #expect(try await daemon.uid() != nil)
        } catch {
            await daemon.cleanUp()
            await emulator.stop()
            throw error
        }
        await daemon.cleanUp()
        await emulator.stop()
    }
}
