import AsyncHTTPClient
import Foundation
import SesameCore
import SesameFirebase
import SesameHTTP
import Testing

/// `FirebaseAuthProvider`'s transport over real HTTP on loopback against `SesameEmulator`:
/// timeouts, injected faults and a dead server.
@Suite("Firebase auth provider: transport failures against the emulator")
struct FirebaseAuthProviderTransportTests {
    @Test("a shared client with a short request timeout: a slow answer is a transport failure")
    func requestTimeout() async throws {
        try await EmulatorHarness.with { h in
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: AsyncHTTPClientTransport.clientConfiguration(for: h.configuration)
            )
            let transport = AsyncHTTPClientTransport(client: client, requestTimeout: .seconds(1))
            let auth = FirebaseAuthProvider(configuration: h.configuration, transport: transport)
            do {
                try await h.faults(#"{"latencyMs":2500}"#)
                await #expect(throws: RemoteAuthError.transport("request timed out")) {
                    _ = try await auth.signUpAnonymously()
                }
                try await h.faults(#"{"latencyMs":0}"#)
                await transport.shutdown()  // a no-op: the client is the caller's
                // The shared client still works; a roomier timeout so a slow (sanitized, loaded)
                // machine does not fail the call that proves it.
                let patient = FirebaseAuthProvider(
                    configuration: h.configuration,
                    transport: AsyncHTTPClientTransport(client: client, requestTimeout: .seconds(15)))
                #expect(try await patient.signUpAnonymously().isNewUser)
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    @Test("injected faults: 503, 429, TOO_MANY_ATTEMPTS_TRY_LATER, a dead server")
    func faults() async throws {
        try await EmulatorHarness.with { h in
            let session = try await h.auth.signUpAnonymously()
            try await h.faults(#"{"failNext":1}"#)
            await #expect(throws: RemoteAuthError.unavailable(status: 503)) {
                _ = try await h.auth.refresh(session.refreshToken)
            }
            try await h.faults(#"{"failNext":1,"failStatus":429,"failMessage":"RESOURCE_EXHAUSTED"}"#)
            await #expect(throws: RemoteAuthError.rateLimited(retryAfterMs: nil)) {
                _ = try await h.auth.refresh(session.refreshToken)
            }
            try await h.faults(#"{"failNext":1,"failStatus":400,"failMessage":"TOO_MANY_ATTEMPTS_TRY_LATER"}"#)
            await #expect(throws: RemoteAuthError.rateLimited(retryAfterMs: nil)) {
                _ = try await h.auth.signIn(email: "a@b.c", password: "secret1")
            }
            try await h.faults(#"{"down":true}"#)
            do {
                _ = try await h.auth.refresh(session.refreshToken)
                Issue.record("expected a transport failure")
            } catch {
                guard case .transport? = error as? RemoteAuthError else {
                    Issue.record("got \(error)")
                    return
                }
            }
            try await h.faults(#"{"down":false}"#)
            #expect(try await h.auth.refresh(session.refreshToken).uid == session.uid)
        }
    }

    @Test("nothing listening: a transport failure, quickly")
    func connectionRefused() async throws {
        let configuration = FirebaseConfiguration(
            apiKey: "k", projectId: "demo-project", authEmulatorHost: "127.0.0.1:1", connectTimeout: .milliseconds(500)
        )
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let auth = FirebaseAuthProvider(configuration: configuration, transport: transport)
        do {
            _ = try await auth.signUpAnonymously()
            Issue.record("expected a transport failure")
        } catch {
            guard case .transport(let message) = error else {
                Issue.record("got \(error)")
                await transport.shutdown()
                return
            }
            #expect(!message.contains("127.0.0.1"))
        }
        await transport.shutdown()
    }
}
