import Testing

/// The backend fault matrix (issue 12): every flow × every fault the emulator injects, on both
/// backends. For each case the session is never lost (same uid; the keyring opens after a
/// restart), the client gets the error docs/protocol.md names, and the next call after the
/// fault clears succeeds. A clock skew between daemon and backend is no failure: the flow
/// succeeds. docs/RELIABILITY.md has the table of what the client sees.
///
/// Each case has its own emulator and daemon (they start in well under a second), so cases are
/// independent and run in parallel.
// The limit counts a case's wait for one of the matrix's emulator slots (ProcessSlots): 152
// cases share four, and under ThreadSanitizer each case takes seconds; a hung case still fails.
@Suite("backend fault matrix", .timeLimit(.minutes(10)))
struct FaultMatrixTests {
    @Test("Firebase", arguments: MatrixFlow.firebaseFlows, MatrixFault.allCases)
    func firebase(flow: MatrixFlow, fault: MatrixFault) async throws {
        try await MatrixRig.run(.firebase, flow: flow, fault: fault) { rig in try await rig.check(flow, fault) }
    }

    @Test("Supabase", arguments: MatrixFlow.allCases, MatrixFault.allCases)
    func supabase(flow: MatrixFlow, fault: MatrixFault) async throws {
        try await MatrixRig.run(.supabase, flow: flow, fault: fault) { rig in try await rig.check(flow, fault) }
    }
}
