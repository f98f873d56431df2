import Foundation
import SesameCore

extension SessionService {
    /// An ID token for a caller, with the uid it belongs to.
    public struct IssuedToken: Sendable, Hashable {
        public var idToken: IDToken
        public var uid: String
    }

    /// The tokens feature (``Tokens``): ID tokens for callers.
    public nonisolated var tokens: Tokens { Tokens(host: self) }
}

/// ID tokens for callers, refreshed when needed: the tokens feature's public face
/// (`service.tokens.idToken(…)`). Its work runs on the session's owner (``SessionHost``).
public struct Tokens: Sendable {
    let host: SessionService

    /// Returns an ID token valid for at least `minValidity` seconds, refreshing when needed.
    /// `minValidity` is bounded by what a fresh token can give (``IDToken/boundedValidity(_:)``:
    /// the token's lifetime less a minute), so a larger one cannot make every call a refresh.
    ///
    /// Concurrent callers share one backend refresh, forced or not. While the backend cannot
    /// be reached, a still-valid token is returned even when it is valid for less than
    /// `minValidity`; an expired one, or `forceRefresh`, is a backend error.
    /// - Parameter uid: the `fromUid` of a pending merge, to read the guest's data; nil or the
    ///   current uid for the current user.
    public func idToken(
        minValidity: TimeInterval = 300, forceRefresh: Bool = false, uid: String? = nil
    ) async throws(AuthError) -> SessionService.IssuedToken {
        try await host.issueToken(minValidity: minValidity, forceRefresh: forceRefresh, uid: uid)
    }
}
