import Foundation
import Logging
import NIOHTTP1
import SesameCore
import SesameHTTP

/// A ``UsernameDirectory`` in two PostgREST tables (the SQL is in `docs/providers.md`):
/// `public.usernames (key primary key, uid)` and `public.username_details (uid primary key,
/// username, email)`, with row-level security that lets each user read and write only their
/// own rows. Keys come from `UsernameKey`, as on Firebase.
///
/// The primary key makes claims atomic: of two concurrent inserts of one key exactly one
/// succeeds, the other gets 409 (`23505`). Releases delete only the row holding both the key
/// and the uid. Reads go through two lookup functions, one key or one uid at a time, so nobody
/// can list the directory; they use the anon key, writes the user's access token. Nothing is
/// logged but the call name, status and error code.
public struct SupabaseUsernameDirectory: UsernameDirectory {
    let client: SupabaseClient

    public init(
        configuration: SupabaseConfiguration,
        transport: any HTTPTransport,
        logger: Logger = Logger(label: "sesame.supabase", factory: { _ in SwiftLogNoOpLogHandler() }),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = SupabaseClient(configuration: configuration, transport: transport, logger: logger, now: now)
    }

    private struct DetailsRow: Decodable {
        var username: String
        var email: String?
    }
    private struct OwnerLookup: Encodable {
        var key: String
        enum CodingKeys: String, CodingKey { case key = "name_key" }
    }
    private struct DetailsLookup: Encodable {
        var uid: String
        enum CodingKeys: String, CodingKey { case uid = "user_id" }
    }
    private struct ClaimRow: Encodable {
        var key: String
        var uid: String
    }
    private struct DetailsWrite: Encodable {
        var uid: String
        var username: String
        var email: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            try container.encode(uid, forKey: AnyCodingKey("uid"))
            try container.encode(username, forKey: AnyCodingKey("username"))
            if let email {
                try container.encode(email, forKey: AnyCodingKey("email"))
            } else {
                try container.encodeNil(forKey: AnyCodingKey("email"))
            }
        }
    }

    /// `rpc/username_owner`: the uid holding `key` (a JSON string), or `null`.
    public func owner(of key: String) async throws(RemoteAuthError) -> String? {
        let context = SupabaseCallContext(name: "rest.lookup.owner", validationReason: .invalidUsername)
        let request = client.request(
            context.name, .POST, url: client.restURL("rpc/username_owner"), bearer: .anonKey,
            body: OwnerLookup(key: key))
        return try await client.send(request, context: context, as: String?.self)
    }

    public func claim(_ key: String, for uid: String, idToken: IDToken) async throws(RemoteAuthError) -> Bool {
        let context = SupabaseCallContext(
            name: "rest.usernames.claim", sentUserToken: true, validationReason: .invalidUsername)
        let request = client.request(
            context.name, .POST, url: client.restURL("usernames"), bearer: .user(idToken),
            body: ClaimRow(key: key, uid: uid),
            headers: [("Prefer", "return=minimal")])
        do {
            try await client.send(request, context: context)
            return true
        } catch .rejected(let error) where error.reason == .usernameTaken {
            // 409 23505: the key is taken. Whose is it? A retry of a claim that already
            // succeeded is ours.
            guard let holder = try await owner(of: key) else { throw .rejected(error) }
            return holder == uid
        }
    }

    public func release(_ key: String, of uid: String, idToken: IDToken) async throws(RemoteAuthError) {
        let context = SupabaseCallContext(name: "rest.usernames.release", sentUserToken: true)
        let request = client.request(
            context.name, .DELETE,
            url: client.restURL("usernames", query: [("key", "eq." + key), ("uid", "eq." + uid)]),
            bearer: .user(idToken))
        try await client.send(request, context: context)
    }

    /// `rpc/username_details_of`: the name and email published for `uid` (`[]` when none).
    public func details(of uid: String) async throws(RemoteAuthError) -> UsernameDetails? {
        let context = SupabaseCallContext(name: "rest.lookup.details")
        let request = client.request(
            context.name, .POST, url: client.restURL("rpc/username_details_of"), bearer: .anonKey,
            body: DetailsLookup(uid: uid))
        guard let row = try await client.send(request, context: context, as: [DetailsRow].self).first else {
            return nil
        }
        return UsernameDetails(username: row.username, email: row.email.flatMap { $0.isEmpty ? nil : $0 })
    }

    public func setDetails(_ details: UsernameDetails, of uid: String, idToken: IDToken) async throws(RemoteAuthError) {
        let context = SupabaseCallContext(
            name: "rest.details.put", sentUserToken: true, validationReason: .invalidUsername)
        let request = client.request(
            context.name, .POST, url: client.restURL("username_details"), bearer: .user(idToken),
            body: DetailsWrite(uid: uid, username: details.username, email: details.email),
            headers: [("Prefer", "resolution=merge-duplicates,return=minimal")])
        try await client.send(request, context: context)
    }
}
