import Foundation
import Logging
import NIOHTTP1
import SesameCore
import SesameHTTP

/// A ``RemoteAuthProvider`` over Supabase Auth (GoTrue) and PostgREST (reference
/// `providers.md` §A, the contract in `docs/providers.md`).
///
/// Stateless apart from its configuration: it holds no session. Each method sends its requests
/// once and never retries (refresh tokens rotate and one-time codes are single-use; the service
/// decides what to retry, with backoff). Provider ids are reported in Firebase's names
/// (`email` → `password`, `google` → `google.com`, …). Tokens, passwords, codes and links are
/// never logged.
public struct SupabaseAuthProvider: RemoteAuthProvider {
    let client: SupabaseClient
    let configuration: SupabaseConfiguration

    public var backendName: String { "supabase" }

    /// - Parameters:
    ///   - configuration: the project URL, the anon key, the delete function.
    ///   - transport: how requests travel; `AsyncHTTPClientTransport` outside tests.
    ///   - logger: receives debug lines with call names, statuses and error codes only.
    ///   - now: the clock that stamps tokens (`issuedAt`, `expiresAt = now + expires_in`) and
    ///     measures an HTTP-date `Retry-After`.
    public init(
        configuration: SupabaseConfiguration,
        transport: any HTTPTransport,
        logger: Logger = Logger(label: "sesame.supabase", factory: { _ in SwiftLogNoOpLogHandler() }),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.client = SupabaseClient(configuration: configuration, transport: transport, logger: logger, now: now)
    }

    // MARK: Session

    public func signUpAnonymously() async throws(RemoteAuthError) -> SignInResult {
        let context = SupabaseCallContext(name: "auth.signup")
        let request = client.request(
            context.name, .POST, url: client.authURL("signup"), bearer: .nobody, body: EmptyBody())
        let answer = try await client.send(request, context: context, as: GoTrueSession.self)
        return try signInResult(answer, name: context.name, isNewUser: true)
    }

    public func refresh(_ refreshToken: RefreshToken) async throws(RemoteAuthError) -> TokenGrant {
        let context = SupabaseCallContext(name: "auth.token.refresh", isRefresh: true, fallback: .invalidCredential)
        let request = client.request(
            context.name, .POST, url: client.authURL("token", query: [("grant_type", "refresh_token")]),
            bearer: .nobody,
            body: RefreshBody(refreshToken: refreshToken.rawValue))
        let answer = try await client.send(request, context: context, as: GoTrueSession.self)
        let result = try signInResult(answer, name: context.name, isNewUser: false)
        return TokenGrant(uid: result.uid, idToken: result.idToken, refreshToken: result.refreshToken)
    }

    public func lookup(_ idToken: IDToken) async throws(RemoteAuthError) -> User {
        try await currentUser(idToken).user
    }

    /// Deletes the caller's account through `rpc/<delete_function>` (GoTrue has no self-delete).
    /// A function that is not deployed (PGRST202) is `operation-not-allowed` saying what to deploy.
    public func deleteAccount(_ idToken: IDToken) async throws(RemoteAuthError) {
        let context = SupabaseCallContext(name: "rest.rpc.delete", sentUserToken: true)
        let request = client.request(
            context.name, .POST,
            url: client.restURL("rpc/" + PercentEncoding.pathSegment(configuration.deleteFunction)),
            bearer: .user(idToken), body: EmptyBody())
        try await client.send(request, context: context)
    }

    /// Ends the session at the server (`POST /logout?scope=local`): its refresh token stops
    /// working; other sessions of the account are untouched. A session that is already gone
    /// counts as ended.
    public func revokeSession(_ idToken: IDToken) async throws(RemoteAuthError) {
        let context = SupabaseCallContext(name: "auth.logout", sentUserToken: true)
        let request = client.request(
            context.name, .POST, url: client.authURL("logout", query: [("scope", "local")]), bearer: .user(idToken))
        do {
            try await client.send(request, context: context)
        } catch .accountGone {
            return
        }
    }

    /// Ends the account's other sessions (`POST /logout?scope=others`) or all of them
    /// (`scope=global`), with this session's access token (GoTrue's logout.go). Each ended
    /// session's refresh token is then refused (`session_not_found`) at its next refresh.
    public func revokeSessions(_ idToken: IDToken, scope: SessionRevocationScope) async throws(RemoteAuthError) {
        let context = SupabaseCallContext(name: "auth.logout", sentUserToken: true)
        let request = client.request(
            context.name, .POST,
            url: client.authURL("logout", query: [("scope", scope == .all ? "global" : "others")]),
            bearer: .user(idToken))
        try await client.send(request, context: context)
    }

    // MARK: Helpers

    /// `GET /user`.
    func currentUser(_ idToken: IDToken) async throws(RemoteAuthError) -> GoTrueUser {
        let context = SupabaseCallContext(name: "auth.user", sentUserToken: true)
        let request = client.request(context.name, .GET, url: client.authURL("user"), bearer: .user(idToken))
        return try await client.send(request, context: context, as: GoTrueUser.self)
    }

    /// The result of a session answer; an answer without tokens is malformed here (callers that
    /// expect a bare user check ``GoTrueSession/hasTokens`` first).
    func signInResult(_ answer: GoTrueSession, name: String, isNewUser: Bool) throws(RemoteAuthError) -> SignInResult {
        guard let accessToken = answer.accessToken, !accessToken.isEmpty,
            let refreshToken = answer.refreshToken, !refreshToken.isEmpty
        else { throw .malformedResponse("\(name): no access_token or refresh_token") }
        guard let uid = answer.user?.id ?? SupabaseClaims.subject(of: accessToken), !uid.isEmpty else {
            throw .malformedResponse("\(name): no user id")
        }
        guard let seconds = answer.expiresIn, seconds > 0, seconds.isFinite else {
            throw .malformedResponse("\(name): expires_in is not a positive number")
        }
        let issuedAt = client.now()
        let token = IDToken(
            rawValue: accessToken, expiresAt: issuedAt.addingTimeInterval(seconds), issuedAt: issuedAt,
            signInProvider: SupabaseClaims.signInProvider(of: accessToken))
        return SignInResult(uid: uid, idToken: token, refreshToken: RefreshToken(refreshToken), isNewUser: isNewUser)
    }
}
