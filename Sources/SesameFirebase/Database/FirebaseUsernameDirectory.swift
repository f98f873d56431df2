import Foundation
import Logging
import NIOCore
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
    let transport: any HTTPTransport
    let logger: Logger
    let now: @Sendable () -> Date

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
        self.transport = transport
        self.logger = logger
        self.now = now
    }

    public func owner(of key: String) async throws(RemoteAuthError) -> String? {
        let response = try await send("rtdb.usernames.get", .GET, Self.usernamesPath + [key])
        guard response.status == 200 else { throw classify(response, sentAuth: false) }
        return try Self.uid(in: response, name: "rtdb.usernames.get")
    }

    public func claim(_ key: String, for uid: String, idToken: IDToken) async throws(RemoteAuthError) -> Bool {
        var headers = HTTPHeaders()
        headers.add(name: "if-match", value: "null_etag")
        let response = try await send(
            "rtdb.usernames.claim", .PUT, Self.usernamesPath + [key], auth: idToken, headers: headers,
            body: Self.json(uid)
        )
        switch response.status {
        case 200:
            // The database echoes the value it wrote; any other body (a proxy's page) is no
            // proof that the name is ours.
            guard try Self.uid(in: response, name: "rtdb.usernames.claim") == uid else {
                throw .malformedResponse("rtdb.usernames.claim: the answer is not the uid written")
            }
            return true
        case 204:
            return true
        case 412:
            // The body is the current value: a claim that already succeeded (a retry) is ours.
            return (try? Self.uid(in: response, name: "rtdb.usernames.claim")) == uid
        case 401, 403:
            // Security rules that refuse to overwrite another uid's name answer "permission
            // denied" before the precondition is checked: then the name is simply taken.
            let failure = classify(response, sentAuth: true)
            guard case .rejected = failure, let holder = try await owner(of: key) else { throw failure }
            return holder == uid
        default:
            throw classify(response, sentAuth: true)
        }
    }

    public func release(_ key: String, of uid: String, idToken: IDToken) async throws(RemoteAuthError) {
        let segments = Self.usernamesPath + [key]
        for _ in 0..<Self.maximumReleaseAttempts {
            var readHeaders = HTTPHeaders()
            readHeaders.add(name: "X-Firebase-ETag", value: "true")
            let read = try await send("rtdb.usernames.read", .GET, segments, auth: idToken, headers: readHeaders)
            guard read.status == 200 else { throw classify(read, sentAuth: true) }
            guard try Self.uid(in: read, name: "rtdb.usernames.read") == uid else { return }
            guard let etag = read.headers.first(name: "ETag"), !etag.isEmpty else {
                throw .malformedResponse("rtdb.usernames.read: no ETag header")
            }
            var deleteHeaders = HTTPHeaders()
            deleteHeaders.add(name: "if-match", value: etag)
            let delete = try await send(
                "rtdb.usernames.release", .DELETE, segments, auth: idToken, headers: deleteHeaders)
            switch delete.status {
            case 200, 204: return
            case 412: continue  // changed since the read: look again
            default: throw classify(delete, sentAuth: true)
            }
        }
        throw .unavailable(status: 412)
    }

    public func details(of uid: String) async throws(RemoteAuthError) -> UsernameDetails? {
        let response = try await send("rtdb.details.get", .GET, Self.detailsPath + [uid])
        guard response.status == 200 else { throw classify(response, sentAuth: false) }
        let record = try Self.decode(
            DetailsRecord?.self, in: response, name: "rtdb.details.get", shape: "not a details record")
        guard let record else { return nil }
        return UsernameDetails(username: record.username, email: record.email.flatMap { $0.isEmpty ? nil : $0 })
    }

    public func setDetails(_ details: UsernameDetails, of uid: String, idToken: IDToken) async throws(RemoteAuthError) {
        let response = try await send(
            "rtdb.details.put", .PUT, Self.detailsPath + [uid], auth: idToken, body: Self.json(details)
        )
        guard response.status == 200 || response.status == 204 else { throw classify(response, sentAuth: true) }
    }

    // MARK: HTTP

    private func send(
        _ name: String, _ method: HTTPMethod, _ segments: [String], auth: IDToken? = nil,
        headers: HTTPHeaders = [:], body: ByteBuffer? = nil
    ) async throws(RemoteAuthError) -> HTTPResponse {
        var headers = headers
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let request = HTTPRequest(
            name: name, method: method, url: urls.url(segments, auth: auth?.rawValue), headers: headers, body: body
        )
        do {
            let response = try await transport.exchange(request)
            logger.debug("rtdb call answered", metadata: ["rtdb.call": "\(name)", "http.status": "\(response.status)"])
            return response
        } catch {
            logger.debug("rtdb call failed", metadata: ["rtdb.call": "\(name)", "rtdb.failure": "\(error)"])
            throw error
        }
    }

    private func classify(_ response: HTTPResponse, sentAuth: Bool) -> RemoteAuthError {
        RealtimeDatabaseErrorClassifier.classify(
            status: response.status, body: response.bytes, sentAuth: sentAuth,
            retryAfterMs: RetryAfter.milliseconds(response.headers.first(name: "Retry-After"), now: now()))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func json(_ value: some Encodable) -> ByteBuffer {
        // Strings and a struct of optional strings always encode.
        ByteBuffer(bytes: (try? encoder.encode(value)) ?? Data("null".utf8))
    }

    /// `response`'s body as `type`: `name: not JSON` when it is not JSON, `name: shape` when
    /// it is JSON of another shape.
    private static func decode<T: Decodable>(
        _ type: T.Type, in response: HTTPResponse, name: String, shape: String
    ) throws(RemoteAuthError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(response.bytes))
        } catch DecodingError.dataCorrupted {
            throw .malformedResponse("\(name): not JSON")
        } catch {
            throw .malformedResponse("\(name): \(shape)")
        }
    }

    /// The uid stored at a username key: a JSON string (this layout), or an object with a
    /// `uid` field (the layout docs/usernames.md describes); nil for `null`.
    private static func uid(in response: HTTPResponse, name: String) throws(RemoteAuthError) -> String? {
        try decode(UidRecord?.self, in: response, name: name, shape: "not a uid")?.uid
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
