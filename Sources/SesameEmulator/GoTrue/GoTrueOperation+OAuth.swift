import Foundation
import Hummingbird
import SesameCore
import SesameLocalAPI

/// GoTrue's browser sign-in: `GET /authorize` redirects to the provider (here the emulator's fake one,
/// `/emulator/v1/idp/<id>/authorize`), `GET /callback` takes its answer and redirects to `redirect_to` with a
/// PKCE `code` (or, implicit flow, a session in the fragment), or with `error`, `error_code`, `error_description`.
extension GoTrueOperation {
    static let oauth: [GoTrueOperation] = [
        GoTrueOperation(.get, "authorize", .open) { store, call throws(GoTrueError) in
            try await authorize(store, call)
        },
        GoTrueOperation(.get, "callback", .browser) { store, call throws(GoTrueError) in
            await callback(store, call, parameters: call.query)
        },
        GoTrueOperation(.post, "callback", .browser) { store, call throws(GoTrueError) in
            await callback(store, call, parameters: call.context.form(call.request))
        },
    ]

    /// `GET /authorize?provider=…&redirect_to=…&code_challenge=…&code_challenge_method=…&scopes=…`.
    static func authorize(_ store: GoTrueStore, _ call: GoTrueCall) async throws(GoTrueError) -> Response {
        let (query, origin) = (call.query, call.origin)
        let provider = (query["provider"] ?? "").lowercased()
        let fakeId = try GoTrueStore.fakeProviderId(for: provider)
        let challenge = query["code_challenge"]
        let method = try GoTrueStore.checkPKCE(challenge: challenge, method: query["code_challenge_method"])
        let referrer = query["redirect_to"].nonEmpty ?? origin
        let state = await store.createFlowState(
            provider: provider, pkce: method.map { (challenge ?? "", $0) }, referrer: referrer)
        let scopes = query["scopes"].nonEmpty
        let location = PercentEncoding.url(
            FakeIdentityProvider.issuer(base: origin, providerId: fakeId) + "/authorize",
            query: [
                ("client_id", "supabase-emulator"), ("redirect_uri", origin + Self.prefix + "/callback"),
                ("response_type", "code"),
                ("scope", scopes.map { "openid email profile " + $0 } ?? "openid email profile"),
                ("state", state),
            ])
        return redirect(.found, to: location)
    }

    /// `/callback?code=…&state=…` (or `error=…`), from the provider: a `state` naming no usable
    /// flow answers ``stateError(_:_:)``, any later failure ``redirectError(_:_:)``.
    static func callback(_ store: GoTrueStore, _ call: GoTrueCall, parameters: [String: String]) async -> Response {
        let flow: FlowState
        do throws(GoTrueError) {
            guard let state = parameters["state"], !state.isEmpty else {
                throw GoTrueError.badRequest("bad_oauth_callback", "OAuth state parameter missing")
            }
            guard UUID(uuidString: state) != nil else {
                throw GoTrueError.badRequest("bad_oauth_state", "OAuth state parameter is invalid")
            }
            flow = try await store.callbackFlowState(state)
        } catch {
            return Self.stateError(call.origin, error)
        }
        if let error = parameters["error"], !error.isEmpty {
            return Self.redirectError(
                flow.referrer, error: error, code: nil, description: parameters["error_description"] ?? "")
        }
        do {
            return try await complete(flow, store, call, code: parameters["code"] ?? "")
        } catch {
            return Self.redirectError(flow.referrer, error)
        }
    }

    /// Exchanges the provider's `code`, then signs the identity in: a redirect to the flow's
    /// `redirect_to` with the PKCE code, or (implicit flow) the session in the fragment.
    private static func complete(
        _ flow: FlowState, _ store: GoTrueStore, _ call: GoTrueCall, code: String
    ) async throws(GoTrueError) -> Response {
        guard !code.isEmpty else {
            throw .badRequest("bad_oauth_callback", "OAuth callback with missing authorization code missing")
        }
        let (origin, identityProvider) = (call.origin, call.identityProvider)
        // The flow's provider passed this check at `/authorize`.
        let fakeId = (try? GoTrueStore.fakeProviderId(for: flow.provider)) ?? ""
        let tokens: FakeIdentityProvider.TokenSet
        do {
            tokens = try await identityProvider.exchange(
                code: code, providerId: fakeId, redirectUri: origin + Self.prefix + "/callback", codeVerifier: nil,
                issuer: FakeIdentityProvider.issuer(base: origin, providerId: fakeId))
        } catch {
            throw .unexpected("Unable to exchange external code")
        }
        // An OIDC provider's answer carries an ID token; GitHub's is an access token alone, so the
        // identity is looked up with it, as GoTrue asks GitHub's user API.
        var claims = tokens.identity.claims
        if tokens.idToken == nil {
            guard let identity = await identityProvider.identity(forAccessToken: tokens.accessToken, providerId: fakeId)
            else { throw .noProfile }
            claims = identity.claims
        }
        switch try await store.completeFlow(
            flow.id, claims: claims, providerAccessToken: tokens.accessToken, issuer: call.issuer)
        {
        case .authCode(let authCode):
            return redirect(.found, to: Self.replacingCode(in: flow.referrer, with: authCode))
        case .session(let session):
            let fields = fragmentFields(of: session) + [("provider_token", tokens.accessToken)]
            return redirect(.found, to: flow.referrer.splitAtFragment.base + "#" + PercentEncoding.form(fields))
        }
    }

    /// A `state` that names no usable flow: 303 to the site URL with the error in the query.
    static func stateError(_ site: String, _ error: GoTrueError) -> Response {
        let location = IdentityProviderRoutes.adding(
            [("error", oauthError(error)), ("error_code", error.code), ("error_description", error.message)], to: site)
        return redirect(.seeOther, to: location)
    }

    /// GoTrue's error redirect: 302 to `target` with `error`, `error_code` (for its own errors)
    /// and `error_description` in the query, repeated in the fragment with `sb`.
    static func redirectError(_ target: String, _ error: GoTrueError) -> Response {
        redirectError(target, error: oauthError(error), code: error.code, description: error.message)
    }

    static func redirectError(_ target: String, error: String, code: String?, description: String) -> Response {
        var fields = [("error", error)]
        if let code { fields.append(("error_code", code)) }
        fields.append(("error_description", description))
        let location =
            IdentityProviderRoutes.adding(fields, to: target.splitAtFragment.base) + "#"
            + PercentEncoding.form(fields + [("sb", "")])
        return redirect(.found, to: location)
    }

    /// GoTrue's mapping of an error to OAuth's `error`.
    static func oauthError(_ error: GoTrueError) -> String {
        if ["signup_disabled", "user_banned", "provider_email_needs_verification"].contains(error.code) {
            return "access_denied"
        }
        return [400: "invalid_request", 401: "unauthorized_client", 403: "access_denied", 500: "server_error"][
            error.httpStatus] ?? "server_error"
    }

    /// `url` with its `code` query parameter set to `code` (others kept, in order).
    static func replacingCode(in url: String, with code: String) -> String {
        let (address, fragment) = url.splitAtFragment
        let parts = address.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts[0])
        let kept = (parts.count > 1 ? parts[1] : "").split(separator: "&").filter {
            !($0 == "code" || $0.hasPrefix("code="))
        }.map(String.init)
        return base + "?" + (kept + ["code=" + PercentEncoding.queryValue(code)]).joined(separator: "&") + fragment
    }
}
