import Foundation
import Hummingbird
import SesameCore

/// The browser flow's pages: `GET authorize` shows the consent form, `POST authorize` redirects
/// back to the client with a code, or with `error=access_denied`.
extension IdentityProviderRoutes {
    /// The authorize request's parameters, carried as hidden fields of the consent form.
    static let authorizeFields = [
        "response_type", "client_id", "redirect_uri", "state", "scope", "nonce", "code_challenge",
        "code_challenge_method",
    ]

    /// Why an authorize request cannot be answered with a redirect, or `nil`.
    static func authorizeProblem(_ fields: [String: String]) -> String? {
        guard let redirect = fields["redirect_uri"].nonEmpty else { return "redirect_uri is missing." }
        guard let url = URLComponents(string: redirect), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return "redirect_uri must be an absolute http or https URL." }
        if fields["response_type"] != "code" { return "response_type must be code." }
        if let method = fields["code_challenge_method"].nonEmpty, !["S256", "plain"].contains(method) {
            return "code_challenge_method must be S256 or plain."
        }
        return nil
    }

    static func authorizePage(providerId: String, fields: [String: String]) -> Response {
        if let problem = authorizeProblem(fields) { return IdentityProviderPages.problem(problem) }
        let hidden = authorizeFields.compactMap { name in fields[name].map { (name, $0) } }
        return IdentityProviderPages.authorize(providerId: providerId, hidden: hidden)
    }

    /// `POST authorize`: 302 to `redirect_uri` with `code` and `state`, or with
    /// `error=access_denied`, `error_description` and `state` on a denial.
    func authorizeDecision(_ call: Call) async -> Response {
        let form = call.form
        if let problem = Self.authorizeProblem(form) { return IdentityProviderPages.problem(problem) }
        let providerId = call.providerId
        let redirectUri = form["redirect_uri"] ?? ""
        var parameters: [(String, String)]
        if form["action"] == "deny" {
            parameters = [("error", "access_denied"), ("error_description", "The user denied the request.")]
        } else {
            let email = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
            guard Self.looksLikeEmail(email) else {
                var fields = form
                fields["email"] = nil
                return Self.authorizePage(providerId: providerId, fields: fields)
            }
            let identity = FakeIdentity(providerId: providerId, email: email, name: form["name"])
            let authorization = FakeIdentityProvider.AuthorizationRequest(
                clientId: call.field("client_id"), redirectUri: redirectUri, state: form["state"],
                scope: call.field("scope"), nonce: call.field("nonce"), codeChallenge: call.field("code_challenge"),
                codeChallengeMethod: call.field("code_challenge_method") ?? "plain")
            let code = await provider.authorize(providerId: providerId, request: authorization, identity: identity)
            parameters = [("code", code)]
        }
        if let state = form["state"] { parameters.append(("state", state)) }
        return .empty(
            .found, headers: [.location: Self.adding(parameters, to: redirectUri), .cacheControl: "no-store"])
    }

    /// `url` with `parameters` added to its query (before any fragment).
    static func adding(_ parameters: [(String, String)], to url: String) -> String {
        let (base, fragment) = url.splitAtFragment
        let query = PercentEncoding.form(parameters)
        if base.hasSuffix("?") || base.hasSuffix("&") { return base + query + fragment }
        return base + (base.contains("?") ? "&" : "?") + query + fragment
    }
}
