import Foundation
import Hummingbird
import SesameLocalAPI

/// `/factors` (TOTP second factors) and `/reauthenticate`, behind a user's bearer.
extension GoTrueRouter {
    func addMFARoutes(to router: Router<EmulatorRequestContext>) {
        on(router, "factors", .post) { request, call throws(GoTrueError) in
            .json(
                try await store.enrollFactor(
                    try Self.body(EnrollFactorBody.self, request), bearer: call.bearer,
                    host: Self.host(of: call.origin)))
        }
        on(router, "factors/{id}/challenge", .post) { request, call throws(GoTrueError) in
            try await limit(.challenge, request)
            return .json(try await store.challengeFactor(request.parameters["id"] ?? "", bearer: call.bearer))
        }
        on(router, "factors/{id}/verify", .post) { request, call throws(GoTrueError) in
            try await limit(.verify, request)
            return .json(
                try await store.verifyFactor(
                    request.parameters["id"] ?? "", try Self.body(VerifyFactorBody.self, request),
                    bearer: call.bearer, issuer: call.issuer))
        }
        on(router, "factors/{id}", .delete) { request, call throws(GoTrueError) in
            .json(try await store.unenrollFactor(request.parameters["id"] ?? "", bearer: call.bearer))
        }
        on(router, "reauthenticate", .get) { _, call throws(GoTrueError) in
            .json(try await store.reauthenticate(bearer: call.bearer, origin: call.origin))
        }
    }

    /// GoTrue's MFA bucket, keyed by the first value of the rate-limit header; no header
    /// configured, or none sent, and nothing is limited (as GoTrue's `performRateLimiting`).
    func limit(_ endpoint: MFARateLimiter.Endpoint, _ request: EmulatorRequest) async throws(GoTrueError) {
        guard let name = store.configuration.rateLimitHeader, let value = request.header(name),
            let first = value.split(separator: ",", omittingEmptySubsequences: false).first
        else { return }
        let client = first.trimmingCharacters(in: .whitespaces)
        guard !client.isEmpty else { return }
        guard await store.allowMFA(endpoint, client: client) else {
            throw GoTrueError(httpStatus: 429, code: "over_request_rate_limit", message: "Request rate limit reached")
        }
    }

    /// The host of `http://host:port` without the port: the default TOTP issuer (GoTrue uses
    /// the site URL's host).
    static func host(of origin: String) -> String {
        let authority = origin.split(separator: "/").last.map(String.init) ?? origin
        guard let colon = authority.lastIndex(of: ":") else { return authority }
        return String(authority[..<colon])
    }
}
