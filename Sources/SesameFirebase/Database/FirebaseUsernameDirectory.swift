import Foundation
import Logging
import NIOHTTP1
import SesameCore
import SesameHTTP

/// A ``UsernameDirectory`` in the Realtime Database, over its REST API (docs/usernames.md).
///
/// Layout (`docs/usernames.md`):
/// `/users/usernames/{key}` = the owner's uid (a JSON string) and `/users/details/{uid}` =
/// `{"username": <as typed, NFC>, "email": <email>}`. Keys come from `UsernameKey`.
///
/// Claims are conditional PUTs with `if-match: null_etag` (create only if absent), so of two
/// concurrent claims exactly one wins; releases are conditional DELETEs with the ETag just
/// read, so a name is only ever removed while it still belongs to the releasing uid. Reads
/// carry no token (the directory must be publicly readable for username sign-in); writes carry
/// `auth=<ID token>`. Nothing is logged but the call name, status and outcome.
public struct FirebaseUsernameDirectory: UsernameDirectory {
    /// How many read-then-delete rounds ``release(_:of:idToken:)`` makes while the location
    /// keeps changing under it.
    public static let maximumReleaseAttempts = 5

    static let usernamesPath = ["users", "usernames"]
    static let detailsPath = ["users", "details"]

    let urls: RealtimeDatabaseURLs
    let pipeline: JSONEndpointClient<RealtimeDatabaseErrorClassifier>

    /// Nil when usernames are off (no database URL and no database emulator host).
    /// `now` measures an HTTP-date `Retry-After`.
    public init?(
        configuration: FirebaseConfiguration,
        transport: any HTTPTransport,
        logger: Logger = Logger(label: "sesame.firebase", factory: { _ in SwiftLogNoOpLogHandler() }),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        guard let urls = RealtimeDatabaseURLs(configuration: configuration) else { return nil }
        self.urls = urls
        self.pipeline = JSONEndpointClient(transport: transport, logger: logger, now: now)
    }

    public func owner(of key: String) async throws(RemoteAuthError) -> String? {
        let request = httpRequest("rtdb.usernames.get", .GET, Self.usernamesPath + [key])
        return try await pipeline.answer(
            request, as: UidRecord?.self, context: .anonymous, accepting: [200], mismatch: Self.notAUid)?.uid
    }

    public func claim(_ key: String, for uid: String, idToken: IDToken) async throws(RemoteAuthError) -> Bool {
        var headers = HTTPHeaders()
        headers.add(name: "if-match", value: "null_etag")
        let request = httpRequest(
            "rtdb.usernames.claim", .PUT, Self.usernamesPath + [key], auth: idToken, headers: headers, body: uid)
        let response = try await pipeline.response(
            request, context: .withIDToken, accepting: [200, 204, 412, 401, 403])
        switch response.status {
        case 200:
            // The database echoes the value it wrote; any other body (a proxy's page) is no
            // proof that the name is ours.
            guard try Self.uid(in: response, call: request.name) == uid else {
                throw .malformedResponse("rtdb.usernames.claim: the answer is not the uid written")
            }
            return true
        case 204:
            return true
        case 412:
            // The body is the current value: a claim that already succeeded (a retry) is ours.
            return (try? Self.uid(in: response, call: request.name)) == uid
        default:
            // 401, 403: security rules that refuse to overwrite another uid's name answer
            // "permission denied" before the precondition is checked: then the name is simply
            // taken.
            let failure = pipeline.refusal(response, call: request.name, context: .withIDToken)
            guard case .rejected = failure, let holder = try await owner(of: key) else { throw failure }
            return holder == uid
        }
    }

    public func release(_ key: String, of uid: String, idToken: IDToken) async throws(RemoteAuthError) {
        let segments = Self.usernamesPath + [key]
        for _ in 0..<Self.maximumReleaseAttempts {
            var readHeaders = HTTPHeaders()
            readHeaders.add(name: "X-Firebase-ETag", value: "true")
            let read = httpRequest("rtdb.usernames.read", .GET, segments, auth: idToken, headers: readHeaders)
            let current = try await pipeline.response(read, context: .withIDToken, accepting: [200])
            guard try Self.uid(in: current, call: read.name) == uid else { return }
            guard let etag = current.headers.first(name: "ETag"), !etag.isEmpty else {
                throw .malformedResponse("rtdb.usernames.read: no ETag header")
            }
            var deleteHeaders = HTTPHeaders()
            deleteHeaders.add(name: "if-match", value: etag)
            let delete = httpRequest("rtdb.usernames.release", .DELETE, segments, auth: idToken, headers: deleteHeaders)
            let deleted = try await pipeline.response(delete, context: .withIDToken, accepting: [200, 204, 412])
            guard deleted.status == 412 else { return }
            // Changed since the read: look again.
        }
        throw .unavailable(status: 412)
    }

    public func details(of uid: String) async throws(RemoteAuthError) -> UsernameDetails? {
        let request = httpRequest("rtdb.details.get", .GET, Self.detailsPath + [uid])
        let record = try await pipeline.answer(
            request, as: DetailsRecord?.self, context: .anonymous, accepting: [200], mismatch: "not a details record")
        guard let record else { return nil }
        return UsernameDetails(username: record.username, email: record.email.flatMap { $0.isEmpty ? nil : $0 })
    }

    public func setDetails(_ details: UsernameDetails, of uid: String, idToken: IDToken) async throws(RemoteAuthError) {
        let request = httpRequest("rtdb.details.put", .PUT, Self.detailsPath + [uid], auth: idToken, body: details)
        _ = try await pipeline.response(request, context: .withIDToken, accepting: [200, 204])
    }

    // MARK: Requests and answers

    private func httpRequest(
        _ name: String, _ method: HTTPMethod, _ segments: [String], auth: IDToken? = nil,
        headers: HTTPHeaders = [:], body: (any Encodable)? = nil
    ) -> HTTPRequest {
        let url = urls.url(segments, auth: auth?.rawValue)
        guard let body else { return HTTPRequest(name: name, method: method, url: url, headers: headers) }
        return HTTPRequest.json(name: name, method: method, url: url, headers: headers, body: body)
    }

    private static let notAUid = "not a uid"

    /// The uid stored at a username key: a JSON string (this layout), or an object with a
    /// `uid` field (the layout docs/usernames.md describes); nil for `null`.
    private static func uid(in response: HTTPResponse, call: String) throws(RemoteAuthError) -> String? {
        try JSONEndpointClient<RealtimeDatabaseErrorClassifier>.decode(
            UidRecord?.self, from: response, call: call, mismatch: notAUid)?.uid
    }

    /// What a username key holds: the uid as a string, or `{"uid": …}`.
    private struct UidRecord: Decodable {
        var uid: String

        private enum CodingKeys: String, CodingKey { case uid }

        init(from decoder: any Decoder) throws {
            if let uid = try? decoder.singleValueContainer().decode(String.self) {
                self.uid = uid
            } else {
                uid = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .uid)
            }
        }
    }

    /// `/users/details/{uid}`: the username as typed, and the email (any non-string is none).
    private struct DetailsRecord: Decodable {
        var username: String
        var email: String?

        private enum CodingKeys: String, CodingKey { case username, email }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            username = try container.decode(String.self, forKey: .username)
            email = try? container.decodeIfPresent(String.self, forKey: .email)
        }
    }
}
