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
            .json(try await store.challengeFactor(request.parameters["id"] ?? "", bearer: call.bearer))
        }
        on(router, "factors/{id}/verify", .post) { request, call throws(GoTrueError) in
            .json(
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

    /// The host of `http://host:port` without the port: the default TOTP issuer (GoTrue uses
    /// the site URL's host).
    static func host(of origin: String) -> String {
        let authority = origin.split(separator: "/").last.map(String.init) ?? origin
        guard let colon = authority.lastIndex(of: ":") else { return authority }
        return String(authority[..<colon])
    }
}
