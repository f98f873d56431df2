import Foundation
import SesameClient
import SesameTesting
import Testing

/// `session.first_guest_window` read by the real daemon: a fresh machine waits within the
/// window before its first sign-up (the spread itself is SesameServiceTests' FirstGuestWindowTests).
@Suite("sesamed: session.first_guest_window")
struct FirstGuestWindowDaemonTests {
    @Test("a fresh machine with a window of an hour is up, signed out, and has made no sign-up yet")
    func freshMachineWaits() async throws {
        try await withEmulatorAndDaemon(settings: ["session": ["first_guest_window": "3600"]], waitFor: "signedOut") {
            emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            #expect(try await client.state().status == .signedOut)
            try await eventually("the daemon says when the first guest comes") {
                daemon.log.contains("the first guest is created within session.first_guest_window")
            }
            #expect(try await client.state().status == .signedOut)
        }
    }
}
