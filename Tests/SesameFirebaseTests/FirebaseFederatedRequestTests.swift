import Foundation
import NIOHTTP1
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// Request shapes of federated sign-in and linking (docs/firebase.md, "Endpoints"), as snapshots,
/// and how its answers and conflicts are read.
@Suite("Firebase auth provider: federated requests")
struct FirebaseFederatedRequestTests {
    let base = "https://identitytoolkit.googleapis.com/v1"

    @Test("federated sign-in: request shape and tokens")
    func signInWithIdp() async throws {
        let google = TestJWT.make(provider: "google.com")
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"kind":"identitytoolkit#VerifyAssertionResponse","providerId":"google.com","localId":"uid-g","email":"ann@example.com","idToken":"\#(google)","refreshToken":"r","expiresIn":"3600","isNewUser":true,"oauthIdToken":"x"}"#
            ),
            .json(
                200,
                #"{"providerId":"github.com","localId":"anon","idToken":"\#(google)","refreshToken":"r","expiresIn":"3600"}"#
            ),
        ])
        let provider = Fixtures.provider(transport)
        let credential = FederatedCredential(
            providerId: "google.com", idToken: #"{"sub":"123","email":"ann@example.com"}"#, accessToken: nil)
        let result = try await provider.signIn(federated: credential, linkingTo: nil)
        let linked = try await provider.signIn(
            federated: FederatedCredential(providerId: "github.com", idToken: nil, accessToken: "gh token"),
            linkingTo: Fixtures.idToken()
        )
        #expect(
            await transport.snapshots == [
                """
                POST \(base)/accounts:signInWithIdp?key=test-key
                content-type: application/json

                {"postBody":"providerId=google.com&id_token=%7B%22sub%22%3A%22123%22%2C%22email%22%3A%22ann%40example.com%22%7D","requestUri":"http://localhost","returnIdpCredential":true,"returnSecureToken":true}
                """,
                """
                POST \(base)/accounts:signInWithIdp?key=test-key
                content-type: application/json

                {"idToken":"CALLER.ID.TOKEN","postBody":"providerId=github.com&access_token=gh%20token","requestUri":"http://localhost","returnIdpCredential":true,"returnSecureToken":true}
                """,
            ])
        #expect(result.uid == "uid-g" && result.isNewUser && result.idToken.signInProvider == "google.com")
        #expect(linked.uid == "anon" && !linked.isNewUser)
    }

    @Test(
        "federated sign-in: needConfirmation is account-exists-with-different-credential, with createAuthUri's methods")
    func needConfirmation() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"providerId":"google.com","localId":"owner","email":"ann@example.com","needConfirmation":true,"verifiedProvider":["github.com"]}"#
            ),
            .json(
                200,
                #"{"kind":"identitytoolkit#CreateAuthUriResponse","registered":true,"allProviders":["password"],"signinMethods":["password","emailLink"],"sessionId":"s"}"#
            ),
        ])
        let credential = FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil)
        await #expect(
            throws: RemoteAuthError.rejected(
                AuthError(
                    .accountExistsWithDifferentCredential, email: "ann@example.com", providerId: "google.com",
                    providers: ["password", "emailLink"]
                ))
        ) {
            _ = try await Fixtures.provider(transport).signIn(federated: credential, linkingTo: nil)
        }
        #expect(await transport.requests.map(\.name) == ["accounts:signInWithIdp", "accounts:createAuthUri"])
    }

    @Test("federated sign-in: needConfirmation falls back to verifiedProvider when methods are hidden")
    func needConfirmationHidden() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"providerId":"google.com","email":"ann@example.com","needConfirmation":true,"verifiedProvider":["github.com"]}"#
            ),
            .json(200, #"{"kind":"identitytoolkit#CreateAuthUriResponse","sessionId":"s"}"#),
        ])
        let credential = FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil)
        await #expect(
            throws: RemoteAuthError.rejected(
                AuthError(
                    .accountExistsWithDifferentCredential, email: "ann@example.com", providerId: "google.com",
                    providers: ["github.com"]
                ))
        ) {
            _ = try await Fixtures.provider(transport).signIn(federated: credential, linkingTo: nil)
        }
    }

    @Test("federated linking: 200 errorMessage conflicts carry email and provider")
    func idpErrorMessage() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"providerId":"google.com","email":"ann@example.com","oauthIdToken":"x","errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED"}"#
            ),
            .json(200, #"{"providerId":"google.com","email":"bob@example.com","errorMessage":"EMAIL_EXISTS"}"#),
        ])
        let provider = Fixtures.provider(transport)
        let credential = FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil)
        await #expect(
            throws: RemoteAuthError.rejected(
                AuthError(.credentialAlreadyInUse, email: "ann@example.com", providerId: "google.com"))
        ) {
            _ = try await provider.signIn(federated: credential, linkingTo: Fixtures.idToken())
        }
        await #expect(
            throws: RemoteAuthError.rejected(
                AuthError(.emailAlreadyInUse, email: "bob@example.com", providerId: "google.com"))
        ) {
            _ = try await provider.signIn(federated: credential, linkingTo: Fixtures.idToken())
        }
    }

    @Test("federated sign-in without a token is refused without a request")
    func idpWithoutToken() async throws {
        let transport = ScriptedTransport([])
        await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCredential, providerId: "google.com"))) {
            _ = try await Fixtures.provider(transport).signIn(
                federated: FederatedCredential(providerId: "google.com", idToken: nil, accessToken: ""), linkingTo: nil
            )
        }
        #expect(await transport.requests.isEmpty)
    }
}
