import Foundation
import SesameCore
import SesameHTTP
import SesameSupabase
import SesameTesting
import Testing

/// Every way in stops at an `aal1` session of a user with a verified factor: no sign-in result
/// (and so no token) leaves the adapter, only ``RemoteAuthError/secondFactorRequired(_:)``.
@Suite("Supabase adapter: the second-factor gate on every sign-in path")
struct SupabaseSecondFactorGateTests {
    enum Path: String, CaseIterable, Sendable {
        case password, emailCode, emailLink, federated, browser, customToken
    }

    static func signIn(_ path: Path, _ provider: SupabaseAuthProvider) async throws {
        switch path {
        case .password:
            _ = try await provider.signIn(email: "ann@example.com", password: "pw-123456")
        case .emailCode:
            _ = try await provider.signIn(email: "ann@example.com", proof: .code("123456"), linkingTo: nil)
        case .emailLink:
            _ = try await provider.signIn(
                email: "ann@example.com",
                proof: .link("https://proj.supabase.co/auth/v1/verify?token=H&type=magiclink"),
                linkingTo: nil)
        case .federated:
            _ = try await provider.signIn(
                federated: FederatedCredential(providerId: "google.com", idToken: "a.b.c", accessToken: nil),
                linkingTo: nil)
        case .browser:
            let start = BrowserSignInStart(
                providerId: "google.com", redirectUri: "http://127.0.0.1:4711/callback", authorizationUrl: "https://x",
                state: "S", backendSecret: "VERIFIER")
            _ = try await provider.completeBrowserSignIn(
                start, callbackUrl: "http://127.0.0.1:4711/callback?state=S&code=C", linkingTo: nil)
        case .customToken:
            _ = try await provider.signIn(customToken: "HASH")
        }
    }

    @Test("an aal1 answer with a verified factor is secondFactorRequired", arguments: Path.allCases)
    func gated(_ path: Path) async throws {
        let transport = ScriptedTransport([
            Fixtures.session(
                jwt: SupabaseSecondFactorRequestTests.aal1JWT, refresh: "r-aal1",
                user: SupabaseSecondFactorRequestTests.userWithFactor)
        ])
        let thrown = await #expect(throws: RemoteAuthError.self) {
            try await Self.signIn(path, Fixtures.provider(transport))
        }
        guard case .secondFactorRequired(let pending)? = thrown else {
            Issue.record("\(path): expected secondFactorRequired, got \(String(describing: thrown))")
            return
        }
        #expect(pending.secondaryCredential == "r-aal1" && pending.factors.map(\.factorId) == ["f-1"])
    }

    @Test("the same answer at aal2 signs in", arguments: Path.allCases)
    func passes(_ path: Path) async throws {
        let transport = ScriptedTransport([
            Fixtures.session(
                jwt: SupabaseSecondFactorRequestTests.aal2JWT, user: SupabaseSecondFactorRequestTests.userWithFactor)
        ])
        try await Self.signIn(path, Fixtures.provider(transport))
    }
}
