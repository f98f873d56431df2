import Foundation
import SesameCore
import SesameFirebase
import SesameTesting
import Testing

/// What the Firebase adapter answers for the provider-neutral parts of the port.
@Suite("Firebase adapter: provider-neutral port")
struct FirebasePortShapeTests {
    @Test("names itself firebase")
    func backendName() {
        #expect(Fixtures.provider(ScriptedTransport([])).backendName == "firebase")
    }

    @Test("takes sign-in links, refuses other links before any request, and has no codes")
    func signInProofs() async throws {
        let transport = ScriptedTransport([])
        let provider = Fixtures.provider(transport)
        try provider.checkSignInProof(.link(Fixtures.signInLink("CODE")))
        #expect(throws: RemoteAuthError.self) {
            try provider.checkSignInProof(.link("https://example.com/?mode=resetPassword&oobCode=c&apiKey=k"))
        }
        do {
            try provider.checkSignInProof(.code("123456"))
            Issue.record("a code was accepted")
        } catch {
            guard case .unsupported = error else { throw error }
            #expect(error.authError.reason == .operationNotAllowed)
        }
        await #expect(throws: RemoteAuthError.self) {
            _ = try await provider.signIn(email: "a@b.c", proof: .code("123456"), linkingTo: nil)
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test("revoking a session succeeds without a request (Firebase has no server-side sessions)")
    func revokeSession() async throws {
        let transport = ScriptedTransport([])
        try await Fixtures.provider(transport).revokeSession(Fixtures.idToken())
        #expect(await transport.requests.isEmpty)
    }
}
