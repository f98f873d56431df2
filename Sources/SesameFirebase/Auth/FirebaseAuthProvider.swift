import Foundation
import Logging
import SesameCore
import SesameHTTP

/// A ``RemoteAuthProvider`` over Firebase Authentication's REST APIs: Identity Toolkit v1 and
/// Secure Token (docs/firebase.md, "Endpoints").
///
/// Stateless apart from its configuration: it holds no session, so concurrent calls are
/// independent. Each method sends its request once and never retries (codes of email links are
/// single-use; the service decides what to retry, with backoff). Failures are classified as
/// `docs/firebase.md` describes. Tokens, passwords, codes and links are never logged.
public struct FirebaseAuthProvider: RemoteAuthProvider {
    /// The `requestUri`/`continueUri` sent where Firebase wants an absolute URL of the caller
    /// (as the SDKs do outside a browser).
    public static let localRequestUri = "http://localhost"

    public var backendName: String { "firebase" }

    let client: IdentityToolkitClient
    let tokens: IDTokenFactory
    let configuration: FirebaseConfiguration

    /// - Parameters:
    ///   - configuration: where the project is (production or an emulator host).
    ///   - transport: how requests travel; ``AsyncHTTPClientTransport`` outside tests.
    ///   - logger: receives debug lines with endpoint names, statuses and error codes only.
    ///   - now: the clock that stamps tokens (`issuedAt`, `expiresAt = now + expiresIn`).
    public init(
        configuration: FirebaseConfiguration,
        transport: any HTTPTransport,
        logger: Logger = Logger(label: "sesame.firebase", factory: { _ in SwiftLogNoOpLogHandler() }),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.client = IdentityToolkitClient(
            urls: FirebaseAuthURLs(configuration: configuration),
            pipeline: JSONEndpointClient(transport: transport, logger: logger, now: now))
        self.tokens = IDTokenFactory(now: now)
    }

    // MARK: Session

    public func signUpAnonymously() async throws(RemoteAuthError) -> SignInResult {
        let context = FirebaseCallContext(.signUp, sentIDToken: false, fallback: .operationNotAllowed)
        let answer = try await client.post(SignUpRequest(), context: context, as: SignInResponse.self)
        return try signInResult(answer, endpoint: .signUp, isNewUser: true)
    }

    public func refresh(_ refreshToken: RefreshToken) async throws(RemoteAuthError) -> TokenGrant {
        let context = FirebaseCallContext(.token, sentIDToken: false, fallback: .invalidCredential)
        let answer = try await client.postForm(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken.rawValue)],
            context: context, as: SecureTokenResponse.self
        )
        guard !answer.userId.isEmpty, !answer.refreshToken.isEmpty else {
            throw .malformedResponse("\(FirebaseEndpoint.token.name): empty user_id or refresh_token")
        }
        return TokenGrant(
            uid: answer.userId,
            idToken: try tokens.make(rawValue: answer.idToken, expiresIn: answer.expiresIn.value, endpoint: .token),
            refreshToken: RefreshToken(answer.refreshToken)
        )
    }

    public func lookup(_ idToken: IDToken) async throws(RemoteAuthError) -> User {
        let context = FirebaseCallContext(.lookup, sentIDToken: true)
        let answer = try await client.post(
            LookupRequest(idToken: idToken.rawValue), context: context, as: LookupResponse.self)
        guard let account = answer.users?.first else {
            throw .malformedResponse("\(FirebaseEndpoint.lookup.name): no user in the answer")
        }
        return account.user
    }

    public func deleteAccount(_ idToken: IDToken) async throws(RemoteAuthError) {
        let context = FirebaseCallContext(.delete, sentIDToken: true)
        _ = try await client.post(
            DeleteAccountRequest(idToken: idToken.rawValue), context: context, as: EmptyResponse.self)
    }

    /// Firebase keeps no server-side session to end: a refresh token stays valid until it is
    /// revoked by an administrator. Nothing to do.
    public func revokeSession(_ idToken: IDToken) async throws(RemoteAuthError) {}

    /// Firebase lets only an administrator end sessions (the Admin SDK's `revokeRefreshTokens`):
    /// a client cannot, so this refuses, naming what to deploy. Nothing is sent.
    public func revokeSessions(_ idToken: IDToken, scope: SessionRevocationScope) async throws(RemoteAuthError) {
        throw .unsupported(
            "Firebase clients cannot end other sessions: deploy a function that calls the Admin SDK's "
                + "revokeRefreshTokens(uid) for the signed-in user (see docs/providers.md, \"Sign-out scopes\"); "
                + "this machine's sign-out (scope local) works without it.")
    }

    // MARK: Helpers

    /// The result of a token-bearing answer.
    func signInResult(
        _ answer: SignInResponse, endpoint: FirebaseEndpoint, isNewUser: Bool
    ) throws(RemoteAuthError) -> SignInResult {
        guard !answer.localId.isEmpty, !answer.refreshToken.isEmpty else {
            throw .malformedResponse("\(endpoint.name): empty localId or refreshToken")
        }
        return SignInResult(
            uid: answer.localId,
            idToken: try tokens.make(rawValue: answer.idToken, expiresIn: answer.expiresIn.value, endpoint: endpoint),
            refreshToken: RefreshToken(answer.refreshToken),
            isNewUser: isNewUser
        )
    }
}
