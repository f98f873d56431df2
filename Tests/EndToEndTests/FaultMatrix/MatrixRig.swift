import Foundation
import SesameClient
import SesameTesting
import Testing

/// One emulator and one daemon (with the matrix's short `backend.request_timeout`) for one
/// case of the fault matrix, and the steps every case shares.
struct MatrixRig: Sendable {
    let emulator: EmulatorProcess
    let daemon: DaemonProcess
    let client: SesameClient
    let backend: MatrixBackend

    /// Starts an emulator and a daemon for `flow` × `fault`, runs `body`, then stops both
    /// (whether it passed or threw; the daemon's log is attached when it threw).
    static func run(
        _ backendKind: TestBackend, flow: MatrixFlow, fault: MatrixFault, _ body: (MatrixRig) async throws -> Void
    ) async throws {
        let emulator = try await EmulatorProcess.start(backend: backendKind, slots: .matrix)
        let backend = MatrixBackend(emulator: emulator)
        let daemon: DaemonProcess
        do {
            if flow.faultsBeforeStart { try await backend.inject(fault, on: flow) }
            daemon = try await DaemonProcess.start(
                emulator: emulator, settings: backend.daemonSettings,
                waitFor: flow.faultsBeforeStart && !fault.isSkew ? nil : "anonymous")
        } catch {
            await emulator.stop()
            throw error
        }
        let rig = MatrixRig(emulator: emulator, daemon: daemon, client: daemon.client(), backend: backend)
        do {
            try await body(rig)
        } catch {
            Issue.record("daemon log tail:\n\(daemon.log.suffix(4000))")
            await rig.client.close()
            await daemon.cleanUp()
            await emulator.stop()
            throw error
        }
        await rig.client.close()
        await daemon.cleanUp()
        await emulator.stop()
    }

    /// Sends a sign-in link to `email` and returns it once the backend has it.
    /// - Parameter afterMailTimer: a link was sent to this address less than a minute ago:
    ///   let the backend's clock pass its mail timer first (GoTrue sends one mail per address
    ///   a minute), as a person would wait.
    func freshSignInLink(_ email: String, afterMailTimer: Bool = false) async throws -> String {
        let previous = try await backend.signInLink(email)
        if afterMailTimer { try await backend.skipMailTimer() }
        _ = try await client.sendSignInLink(email: email)
        var link: String?
        try await eventually("a new sign-in link for \(email)") {
            link = try await backend.signInLink(email)
            return link != nil && link != previous
        }
        return try #require(link)
    }

    /// The whole case: prepare, fault, call, check what the client saw and that the session is
    /// kept, clear, call again, check it succeeded, restart on the same keyring.
    func check(_ flow: MatrixFlow, _ fault: MatrixFault) async throws {
        var setup = MatrixSetup()
        if flow.faultsBeforeStart {
            if !fault.isSkew {
                // The daemon has tried to create its first guest and failed.
                try await eventually("sesamed is up and \(fault.expectedConnectivity)") {
                    try await client.state().connectivity == fault.expectedConnectivity
                }
            }
        } else {
            setup = try await flow.prepare(self)
            try await backend.inject(fault, on: flow)
        }
        let before = try await client.state()
        let watch = try await StateWatch.start(client)
        defer { watch.stop() }

        if fault.isSkew {
            try await flow.act(self, setup)
            try await backend.clearFaults()
        } else {
            try await expectFault(fault, from: flow, setup)
            let after = try await client.state()
            if flow.clientSeesFault {
                #expect(after.user?.uid == before.user?.uid, "the session is kept")
                #expect(after.status == before.status, "the session is kept")
            }
            if fault != .garbage {
                // (Other calls may succeed meanwhile and turn it online again, so look at every state.)
                try await eventually("connectivity turned \(fault.expectedConnectivity)") {
                    await watch.log.states.contains { $0.connectivity == fault.expectedConnectivity }
                }
            }
            if fault.isLateAnswer { try await flow.awaitLateEffect(self, uid: before.user?.uid) }
            try await backend.clearFaults()
            try await flow.retry(self, &setup, after: fault)
        }
        try await flow.expectSucceeded(self, setup, before: before)
        let state = try await client.state()
        #expect(state.connectivity == .online, "a successful call turns connectivity online")

        // The session survives a restart: the keyring opens and holds the same uid.
        let status = try await daemon.stop()
        #expect(status == 0)
        try await daemon.restart(waitFor: state.status.rawValue)
        #expect(try await daemon.uid() == state.user?.uid, "the keyring holds the session after a restart")
    }

    /// Runs the flow's call under `fault`: the client gets the 2000 error docs/protocol.md
    /// names (or, for sign-out, which does not fail, no error).
    private func expectFault(_ fault: MatrixFault, from flow: MatrixFlow, _ setup: MatrixSetup) async throws {
        do {
            try await flow.act(self, setup)
            #expect(!flow.clientSeesFault, "the call succeeded under \(fault.testDescription)")
        } catch let error as SesameClientError {
            let daemonError = try #require(error.daemonError, "\(error)")
            #expect(flow.clientSeesFault, "\(error)")
            #expect(daemonError.code == 2000, "\(daemonError.reason): \(daemonError.message)")
            #expect(daemonError.reason == fault.expectedReason, "\(daemonError.message)")
            if fault == .rateLimited {
                let wait = daemonError.retryAfterMs ?? 0
                #expect(wait > 0 && wait <= MatrixFault.retryAfterSeconds * 1000, "retryAfterMs \(wait)")
            }
        }
    }
}
