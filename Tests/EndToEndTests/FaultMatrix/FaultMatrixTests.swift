import Testing

/// The backend fault matrix (issue 12): every flow × every fault the emulator injects. For
/// each case the session is never lost (same uid; the keyring opens after a restart), the
/// client gets the error docs/protocol.md names, and the next call after the fault clears
/// succeeds. A clock skew between daemon and backend is no failure: the flow succeeds.
/// docs/RELIABILITY.md has the table of what the client sees.
@Suite("backend fault matrix", .timeLimit(.minutes(3)))
struct FaultMatrixTests {
    @Test("Firebase", arguments: MatrixFlow.allCases, MatrixFault.allCases)
    func firebase(flow: MatrixFlow, fault: MatrixFault) async throws {
        try await MatrixRig.run(flow: flow, fault: fault) { rig in try await rig.check(flow, fault) }
    }
}
