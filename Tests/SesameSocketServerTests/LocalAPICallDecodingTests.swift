import SesameCore
import SesameLocalAPI
import Testing

@testable import SesameSocketServer

/// Requests decode straight into SesameCore's values (`Credential`, `EmailSignInProof`).
@Suite("LocalAPICall decoding into domain values")
struct LocalAPICallDecodingTests {
    private func decode(_ method: LocalAPIMethod, _ params: [String: JSONValue]) throws(LocalAPIError) -> LocalAPICall {
        try LocalAPICall.decode(method, LocalAPIParams(params))
    }

    @Test("linkCredential decodes each provider into a Credential; an email link without email has an empty one")
    func credentials() throws {
        guard
            case .linkCredential(let password) = try decode(
                .linkCredential,
                ["credential": ["providerId": "password", "email": "ann@example.com", "password": "secret1"]])
        else {
            Issue.record("not a linkCredential")
            return
        }
        #expect(password == .password(email: "ann@example.com", password: "secret1"))

        guard
            case .linkCredential(let link) = try decode(
                .linkCredential, ["credential": ["providerId": "emailLink", "link": "https://x/?oobCode=c"]])
        else {
            Issue.record("not a linkCredential")
            return
        }
        #expect(link == .emailLink(email: "", link: "https://x/?oobCode=c"))

        guard
            case .linkCredential(let federated) = try decode(
                .linkCredential, ["credential": ["providerId": "google.com", "idToken": "t"]])
        else {
            Issue.record("not a linkCredential")
            return
        }
        #expect(federated == .federated(providerId: "google.com", idToken: "t", accessToken: nil))

        #expect(throws: LocalAPIError.self) {
            _ = try decode(.linkCredential, ["credential": ["providerId": "google.com"]])
        }
    }

    @Test("completeSignInLink takes link or code, as an EmailSignInProof, and refuses both")
    func proofs() throws {
        guard case .completeSignInLink(let link, let email) = try decode(.completeSignInLink, ["link": "L"]) else {
            Issue.record("not a completeSignInLink")
            return
        }
        #expect(link == .link("L") && email == nil)
        guard
            case .completeSignInLink(let code, let address) = try decode(
                .completeSignInLink, ["code": "123456", "email": "ann@example.com"])
        else {
            Issue.record("not a completeSignInLink")
            return
        }
        #expect(code == .code("123456") && address == "ann@example.com")
        #expect(throws: LocalAPIError.self) { _ = try decode(.completeSignInLink, ["link": "L", "code": "1"]) }
    }

    @Test("signOut's scope is local by default, others or everywhere; anything else is -32602 naming the values")
    func signOutScopes() throws {
        guard case .signOut(false, "local") = try decode(.signOut, [:]) else {
            Issue.record("not a local signOut")
            return
        }
        guard case .signOut(true, "everywhere") = try decode(.signOut, ["reset": true, "scope": "everywhere"]) else {
            Issue.record("not an everywhere signOut")
            return
        }
        guard case .signOut(false, "others") = try decode(.signOut, ["scope": "others"]) else {
            Issue.record("not an others signOut")
            return
        }
        for bad: JSONValue in ["global", "", 3] {
            do {
                _ = try decode(.signOut, ["scope": bad])
                Issue.record("scope \(bad) was taken")
            } catch {
                #expect(error.code == .invalidParams)
                #expect(error.message.contains("scope"))
            }
        }
    }
}
