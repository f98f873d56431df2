import Foundation
import SesameLocalAPI

/// The browser sign-in of GoTrue (`/authorize`, `/callback`, `grant_type=pkce`): flow states,
/// and the account rules of the id_token grant for the identity the provider vouched for.
extension GoTrueStore {
    /// GoTrue provider names this emulator's `/authorize` serves, with the fake identity
    /// provider id behind each; `custom:<id>` maps to `<id>`.
    static let authorizeProviders: [String: String] = [
        "google": "google.com", "apple": "apple.com", "azure": "microsoft.com", "facebook": "facebook.com",
        "keycloak": "keycloak", "kakao": "kakao", "github": "github.com",
    ]

    /// Providers GoTrue knows but this emulator's configuration leaves disabled.
    static let disabledProviders: Set<String> = [
        "bitbucket", "discord", "figma", "fly", "gitlab", "linkedin", "linkedin_oidc", "notion", "snapchat",
        "spotify", "slack", "slack_oidc", "twitch", "twitter", "x", "vercel_marketplace", "workos", "zoom",
    ]

    /// The fake identity provider id for GoTrue's provider name.
    /// - Throws: 400 `validation_failed` "Unsupported provider: …" as GoTrue words it.
    static func fakeProviderId(for provider: String) throws(GoTrueError) -> String {
        if provider.hasPrefix("custom:"), provider.count > 7 { return String(provider.dropFirst(7)) }
        if let id = authorizeProviders[provider] { return id }
        if disabledProviders.contains(provider) { throw .validation("Unsupported provider: provider is not enabled") }
        throw .validation("Unsupported provider: Provider \(provider) could not be found")
    }

    /// GoTrue's PKCE parameter checks (`validatePKCEParams`); returns the normalized method.
    static func checkPKCE(challenge: String?, method: String?) throws(GoTrueError) -> String? {
        let (challenge, method) = (challenge ?? "", method ?? "")
        if challenge.isEmpty != method.isEmpty {
            throw .validation("PKCE flow requires code_challenge_method and code_challenge")
        }
        if challenge.isEmpty { return nil }
        guard (43...128).contains(challenge.utf8.count) else {
            throw .validation("code challenge has to be between 43 and 128 characters")
        }
        let allowed = challenge.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                || "._~-".unicodeScalars.contains($0)
        }
        if !allowed {
            throw .validation(
                "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes")
        }
        guard ["s256", "plain"].contains(method.lowercased()) else {
            throw .validation("Invalid code_challenge_method")
        }
        return method.lowercased()
    }

    /// Stores a new flow state for `/authorize`; returns its id (the OAuth `state`).
    func createFlowState(provider: String, pkce: (challenge: String, method: String)?, referrer: String) -> String {
        let at = now
        challenges.flows = challenges.flows.filter { at - $0.value.createdAt < FlowState.lifetime * 1000 }
        let id = UUID().uuidString.lowercased()
        challenges.flows[id] = FlowState(
            id: id, provider: provider,
            pkce: pkce.map {
                .init(challenge: $0.challenge, method: $0.method, authCode: UUID().uuidString.lowercased())
            },
            referrer: referrer, createdAt: at)
        return id
    }

    /// The flow state a callback's `state` names, checked as GoTrue's `loadExternalState` does.
    func callbackFlowState(_ state: String) throws(GoTrueError) -> FlowState {
        guard let flow = challenges.flows[state] else {
            throw .badRequest("bad_oauth_state", "OAuth state not found or expired")
        }
        if now - flow.createdAt > FlowState.lifetime * 1000 {
            throw .badRequest("bad_oauth_state", "OAuth state has expired")
        }
        if flow.pkce != nil && flow.userId != nil {
            throw .badRequest("flow_state_already_used", "State has already been used")
        }
        return flow
    }

    /// What the callback ends in: the PKCE auth code, or (implicit flow) a session.
    enum CallbackOutcome: Sendable {
        case authCode(String)
        case session(JSONValue)
    }

    /// Completes a flow with the identity the provider vouched for (`claims` of its ID token or
    /// user info): finds or creates the user by the id_token grant's rules.
    func completeFlow(
        _ state: String, claims: [String: JSONValue], providerAccessToken: String, issuer: String
    ) throws(GoTrueError) -> CallbackOutcome {
        var flow = try callbackFlowState(state)
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else { throw .noProfile }
        let email = try claims["email"]?.stringValue.map { (e: String) throws(GoTrueError) in try Self.validEmail(e) }
        let verified = claims["email_verified"]?.boolValue ?? false
        var identity = GoTrueIdentity(
            provider: flow.provider, sub: sub, claims: claims, email: email, verified: verified, now: now)
        if let login = claims["screen_name"] {
            // GoTrue's GitHub provider: the login as `user_name` and `preferred_username`.
            identity.data["user_name"] = login
            identity.data["preferred_username"] = login
        }
        let userId = try federatedUserId(identity, verified: verified)
        guard let authCode = flow.pkce?.authCode else {
            challenges.flows[state] = nil
            return .session(startSession(userId: userId, method: "oauth", issuer: issuer))
        }
        flow.userId = userId
        flow.providerAccessToken = providerAccessToken
        challenges.flows[state] = flow
        return .authCode(authCode)
    }

    /// `POST /token?grant_type=pkce {auth_code, code_verifier}` (GoTrue `token.go` `PKCE`).
    func pkceGrant(_ body: PKCEGrantBody, issuer: String) throws(GoTrueError) -> JSONValue {
        guard let authCode = body.authCode, !authCode.isEmpty, let verifier = body.codeVerifier, !verifier.isEmpty
        else { throw .validation("invalid request: both auth code and code verifier should be non-empty") }
        guard let flow = challenges.flows.values.first(where: { $0.pkce?.authCode == authCode }),
            let userId = flow.userId,
            users[userId] != nil
        else { throw .notFound("flow_state_not_found", "invalid flow state, no valid flow state found") }
        if now - flow.createdAt > FlowState.lifetime * 1000 {
            throw .unprocessable("flow_state_expired", "invalid flow state, flow state has expired")
        }
        let computed = FakeIdentityProvider.pkceChallenge(of: verifier, plain: flow.pkce?.method == "plain")
        guard computed == flow.pkce?.challenge else {
            throw .badRequest("bad_code_verifier", "code challenge does not match previously saved code verifier")
        }
        if users[userId]?.isBanned(at: now) == true { throw .userBanned }
        challenges.flows[flow.id] = nil
        var session = startSession(userId: userId, method: "oauth", issuer: issuer).objectValue ?? [:]
        session["provider_token"] = flow.providerAccessToken.map(JSONValue.string)
        return .object(session)
    }
}
