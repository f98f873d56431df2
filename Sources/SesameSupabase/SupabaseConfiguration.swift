import Foundation

/// Where and how to reach a Supabase project. Plain values: the daemon's configuration code
/// reads them from `[supabase]` in `sesamed.toml`.
public struct SupabaseConfiguration: Sendable, Hashable {
    /// The header that selects GoTrue's current error shape (`{"code","message"}`).
    public static let apiVersion = "2024-01-01"

    /// The project URL without a trailing slash: auth is at `<url>/auth/v1`, the database at
    /// `<url>/rest/v1` (Supabase's hosted and local layouts).
    public var url: String
    /// The anon (publishable) key: sent as `apikey` on every call, and as the bearer of the
    /// database calls made without a user.
    public var anonKey: String
    /// The PostgREST function (`rpc/<name>`) that deletes the calling user's account.
    public var deleteFunction: String
    /// How long a TCP connect may take before the call fails as a transport error.
    public var connectTimeout: Duration
    /// How long a whole call may take.
    public var requestTimeout: Duration

    public init(
        url: String, anonKey: String, deleteFunction: String = "delete_user",
        connectTimeout: Duration = .milliseconds(800), requestTimeout: Duration = .seconds(10)
    ) {
        var url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        while url.hasSuffix("/") { url.removeLast() }
        self.url = url
        self.anonKey = anonKey.trimmingCharacters(in: .whitespacesAndNewlines)
        self.deleteFunction = deleteFunction.isEmpty ? "delete_user" : deleteFunction
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
    }

    /// `<url>/auth/v1`.
    public var authBase: String { url + "/auth/v1" }
    /// `<url>/rest/v1`.
    public var restBase: String { url + "/rest/v1" }
}
