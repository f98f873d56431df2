/// GoTrue's `flow_state` row of one browser sign-in: made by `/authorize` (its id is the `state` sent to the
/// provider), completed by `/callback`, and, in the PKCE flow, spent by `grant_type=pkce`.
struct FlowState: Sendable {
    /// A UUID; the OAuth `state`.
    var id: String
    /// GoTrue's provider name (`google`, `azure`, `custom:…`).
    var provider: String
    /// The PKCE flow's part; `nil` in the implicit flow.
    var pkce: PKCE?
    /// Where the browser goes at the end (`redirect_to`, else the site URL).
    var referrer: String
    /// Milliseconds since 1970.
    var createdAt: Int
    /// Set by the callback: whom the flow signed in, and the provider's access token.
    var userId: String?
    var providerAccessToken: String?

    /// PKCE: the client's challenge and its method (`s256` or `plain`), and the code handed back
    /// to the client (a UUID), set at creation as GoTrue does.
    struct PKCE: Sendable {
        var challenge: String
        var method: String
        var authCode: String
    }

    /// GoTrue's `GOTRUE_EXTERNAL_FLOW_STATE_EXPIRY_DURATION` default, seconds.
    static let lifetime = 300
}
