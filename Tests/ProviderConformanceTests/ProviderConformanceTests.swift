import SesameTesting
import Testing

/// The `RemoteAuthProvider` conformance suite (SesameTesting) against both adapters, each over
/// real loopback HTTP with its emulator.
@Suite("RemoteAuthProvider conformance")
struct ProviderConformanceTests {
    @Test("Firebase adapter + Firebase emulator", arguments: ProviderConformanceCheck.allCases)
    func firebase(_ check: ProviderConformanceCheck) async throws {
        try await FirebaseConformanceBackend.with { backend in
            try await ProviderConformance(backend: backend).run(check)
        }
    }

    @Test("Supabase adapter + Supabase emulator", arguments: ProviderConformanceCheck.allCases)
    func supabase(_ check: ProviderConformanceCheck) async throws {
        try await SupabaseConformanceBackend.with { backend in
            try await ProviderConformance(backend: backend).run(check)
        }
    }
}
