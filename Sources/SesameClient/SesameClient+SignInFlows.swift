import SesameLocalAPI

/// The methods of PROTOCOL.md's "Sign-in flows" and "Provisioning": a person signs in where
/// they are (a device code, or a browser with a loopback redirect), or a fleet machine with a
/// token minted by the project's server.
extension SesameClient {
    /// Starts an interactive sign-in flow; a new one cancels the open one (`cancelled`).
    /// - Parameters:
    ///   - providerId: `google.com`, `github.com`, … (configured in `[oauth.<providerId>]`).
    ///   - flow: `device` (show ``SesameSignInFlow/verificationUri`` and
    ///     ``SesameSignInFlow/userCode``) or `browser` (open
    ///     ``SesameSignInFlow/authorizationUrl``).
    ///   - redirectUri: a browser flow's loopback listener, `http://127.0.0.1:PORT/…`.
    ///   - purpose: `sign-in` (the daemon's default) or `reauthenticate`.
    /// - Throws: `operation-not-allowed` for a provider without configuration.
    public func startSignIn(
        providerId: String, flow: String, redirectUri: String? = nil, purpose: String? = nil
    ) async throws -> SesameSignInFlow {
        var params: [String: JSONValue] = ["providerId": .string(providerId), "flow": .string(flow)]
        if let redirectUri { params["redirectUri"] = .string(redirectUri) }
        if let purpose { params["purpose"] = .string(purpose) }
        let result = try await call(.startSignIn, params)
        guard let started = SesameSignInFlow(json: result) else {
            throw SesameClientError.protocolError("a SignInFlow without flowId, providerId, flow or status")
        }
        return started
    }

    /// Finishes a browser flow with the full URL the browser came back to on the loopback
    /// listener (`http://127.0.0.1:PORT/callback?code=…&state=…`).
    /// - Throws: `invalid-credential` (a `state` that does not match), `access-denied`,
    ///   `expired-sign-in-flow`, `sign-in-cancelled`, and the reasons of ``signInWithIdp(providerId:idToken:accessToken:)``.
    public func completeSignIn(
        flowId: String, callbackUrl: String
    ) async throws -> (state: SesameState, merge: SesameMerge?) {
        try SesameState.decodeWithMerge(
            try await call(.completeSignIn, ["flowId": .string(flowId), "callbackUrl": .string(callbackUrl)]))
    }

    /// Waits until the flow ends and returns its outcome. The call waits at least `timeout`
    /// beyond the client's ``requestTimeout``, so that limit never cuts the wait short.
    /// - Parameter timeout: how long the daemon waits (its default is 300 s); whole seconds,
    ///   rounded up.
    /// - Throws: `operation-in-progress` at `timeout` (the flow goes on: wait again),
    ///   `access-denied`, `expired-sign-in-flow`, `sign-in-cancelled`, or the sign-in's error.
    public func awaitSignIn(
        flowId: String, timeout: Duration? = nil
    ) async throws -> (state: SesameState, merge: SesameMerge?) {
        var params: [String: JSONValue] = ["flowId": .string(flowId)]
        var longest = Self.defaultAwaitTimeout
        if let timeout {
            let seconds = max(0, Self.wholeSecondsRoundedUp(timeout))
            params["timeout"] = .integer(seconds)
            longest = .seconds(seconds)
        }
        return try SesameState.decodeWithMerge(try await call(.awaitSignIn, params, waitingAtLeast: longest))
    }

    /// Ends the flow; whoever waits on it gets `sign-in-cancelled`.
    public func cancelSignIn(flowId: String) async throws {
        _ = try await call(.cancelSignIn, ["flowId": .string(flowId)])
    }

    /// Signs in with a token minted by the project's server (a Firebase custom token, or the
    /// `hashed_token` of a Supabase magic link). From a guest it follows ``signIn(identifier:password:)``'s
    /// rules. The token is never logged.
    /// - Throws: `invalid-custom-token` (malformed, expired or refused; the guest is unchanged).
    public func signInWithCustomToken(_ token: String) async throws -> (state: SesameState, merge: SesameMerge?) {
        try SesameState.decodeWithMerge(try await call(.signInWithCustomToken, ["token": .string(token)]))
    }

    /// The daemon's `awaitSignIn` timeout when the call gives none.
    static let defaultAwaitTimeout: Duration = .seconds(300)

    static func wholeSecondsRoundedUp(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return attoseconds > 0 ? seconds + 1 : seconds
    }
}
