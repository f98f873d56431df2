import Foundation
import NIOHTTP1
import SesameCore
import SesameHTTP
import SesameLocalAPI
import SesameSupabase
import SesameTesting
import Testing

/// The Supabase adapter's custom tokens (the `hashed_token` of an admin-generated magic link)
/// and its PKCE browser sign-in, over real HTTP against the emulator's Supabase surface.
@Suite("Supabase adapter: sign-in flows against the Supabase emulator")
struct SupabaseSignInFlowEmulatorTests {
    static let redirect = "http://127.0.0.1:4711/callback"

    /// `POST /auth/v1/admin/generate_link {type: magiclink, email}` with the service role key.
    static func hashedToken(_ b: SupabaseConformanceBackend, email: String) async throws -> String {
        let (status, body) = try await b.helper.call(
            "POST", b.url + "/auth/v1/admin/generate_link",
            json: ["type": "magiclink", "email": .string(email)],
            headers: [("apikey", b.serviceRoleKey), ("Authorization", "Bearer " + b.serviceRoleKey)])
        #expect(status == 200, "\(body.jsonString)")
        return try #require(body["hashed_token"]?.stringValue)
    }

    @Test("a magic link's hashed token signs in (and up) once; a spent or unknown one is invalid-custom-token")
    func customToken() async throws {
        try await SupabaseConformanceBackend.with { b in
            let token = try await Self.hashedToken(b, email: "fleet@example.com")
            let result = try await b.supabase.signIn(customToken: token)
            let user = try await b.supabase.lookup(result.idToken)
            #expect(user.email == "fleet@example.com" && user.emailVerified && !user.isAnonymous)
            for spent in [token, "0123456789abcdef", "not a hash"] {
                await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCustomToken))) {
                    _ = try await b.supabase.signIn(customToken: spent)
                }
            }
            // An existing account: its own uid again.
            let again = try await b.supabase.signIn(
                customToken: try await Self.hashedToken(b, email: "fleet@example.com"))
            #expect(again.uid == result.uid)
        }
    }

    /// Follows the browser's way from `url`: GETs redirects, and answers the fake provider's
    /// consent form (a POST of the page's own URL with `email`, or `action=deny`), until the
    /// redirect leaves for `redirect`.
    static func browse(
        _ url: String, email: String, deny: Bool = false, transport: any HTTPTransport
    ) async throws -> String {
        var next = url
        for _ in 0..<6 {
            if next.hasPrefix(redirect) { return next }
            var request = HTTPRequest(name: "browser", method: .GET, url: next)
            if next.contains("/emulator/v1/idp/") && next.contains("/authorize") {
                let fields = deny ? [("action", "deny")] : [("email", email)]
                request = HTTPRequest.form(name: "consent", method: .POST, url: next, fields: fields)
            }
            let response = try await transport.send(request)
            guard (300..<400).contains(response.status), let location = response.headers.first(name: "Location") else {
                throw HarnessError("\(next) answered \(response.status) without a redirect")
            }
            next = location.hasPrefix("/") ? origin(of: next) + location : location
        }
        throw HarnessError("too many redirects from \(url)")
    }

    /// `scheme://host:port` of `url`.
    static func origin(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        return String(url[..<(rest.firstIndex(of: "/") ?? url.endIndex)])
    }

    /// A browser's HTTP client: its own transport, which never follows redirects.
    static func withBrowser(_ body: (any HTTPTransport) async throws -> Void) async throws {
        let transport = AsyncHTTPClientTransport(connectTimeout: LoopbackTimeouts.connect, requestTimeout: .seconds(20))
        do {
            try await body(transport)
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }

    // The tests below need the emulator's fake identity provider and GoTrue's /authorize,
    // /callback and pkce grant (issue 20, emulator side).

    @Test("browser sign-in: /authorize, the provider, /callback, then the pkce grant with the verifier")
    func browserSignIn() async throws {
        try await SupabaseConformanceBackend.with { b in
            let guest = try await b.supabase.signUpAnonymously()
            let start = try await b.supabase.startBrowserSignIn(providerId: "google.com", redirectUri: Self.redirect)
            var callback = ""
            try await Self.withBrowser { browser in
                callback = try await Self.browse(start.authorizationUrl, email: "dee@example.com", transport: browser)
            }
            #expect(CallbackQuery(callback).value("state") == start.state)
            guard
                case .signedIn(let result) = try await b.supabase.completeBrowserSignIn(
                    start, callbackUrl: callback, linkingTo: guest.idToken)
            else { throw HarnessError("not signed in") }
            // GoTrue cannot link at the callback: the identity's own account, not the guest.
            #expect(result.uid != guest.uid)
            let user = try await b.supabase.lookup(result.idToken)
            #expect(user.email == "dee@example.com" && user.providers.contains("google.com"))
            // The code is spent.
            await #expect(throws: RemoteAuthError.self) {
                _ = try await b.supabase.completeBrowserSignIn(start, callbackUrl: callback, linkingTo: nil)
            }
        }
    }

    @Test("browser sign-in: a denial at the provider comes back as access-denied")
    func browserDenied() async throws {
        try await SupabaseConformanceBackend.with { b in
            let start = try await b.supabase.startBrowserSignIn(providerId: "apple.com", redirectUri: Self.redirect)
            var callback = ""
            try await Self.withBrowser { browser in
                callback = try await Self.browse(start.authorizationUrl, email: "", deny: true, transport: browser)
            }
            await #expect(throws: RemoteAuthError.rejected(AuthError(.accessDenied, providerId: "apple.com"))) {
                _ = try await b.supabase.completeBrowserSignIn(start, callbackUrl: callback, linkingTo: nil)
            }
        }
    }
}
