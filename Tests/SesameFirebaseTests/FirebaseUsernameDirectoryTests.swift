import Foundation
import NIOHTTP1
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// Request shapes and answers of the Realtime Database username directory (docs/usernames.md).
@Suite("Firebase username directory")
struct FirebaseUsernameDirectoryTests {
    typealias Reply = ScriptedTransport.Reply
    let production = FirebaseConfiguration(
        apiKey: "k", projectId: "demo-project", databaseURL: "https://sesame-db.firebaseio.com/"
    )

    func directory(
        _ transport: ScriptedTransport, _ configuration: FirebaseConfiguration? = nil
    ) throws -> FirebaseUsernameDirectory {
        try #require(FirebaseUsernameDirectory(configuration: configuration ?? production, transport: transport))
    }

    @Test("usernames are off without a database URL or emulator host")
    func off() {
        let configuration = FirebaseConfiguration(apiKey: "k", projectId: "p", databaseURL: "  ")
        #expect(!configuration.usernamesEnabled)
        #expect(FirebaseUsernameDirectory(configuration: configuration, transport: ScriptedTransport([])) == nil)
    }

    @Test(
        "base URLs and namespaces",
        arguments: [
            (
                FirebaseConfiguration(
                    apiKey: "k", projectId: "demo-project", databaseURL: "https://sesame-db.firebaseio.com"),
                "https://sesame-db.firebaseio.com/users/usernames/ann.json"
            ),
            (
                FirebaseConfiguration(
                    apiKey: "k", projectId: "demo-project", databaseURL: "sesame-db.europe-west1.firebasedatabase.app"),
                "https://sesame-db.europe-west1.firebasedatabase.app/users/usernames/ann.json"
            ),
            (
                FirebaseConfiguration(apiKey: "k", projectId: "demo-project", databaseEmulatorHost: "127.0.0.1:9000"),
                "http://127.0.0.1:9000/users/usernames/ann.json?ns=demo-project-default-rtdb"
            ),
            (
                FirebaseConfiguration(
                    apiKey: "k", projectId: "demo-project", databaseURL: "https://sesame-db.firebaseio.com",
                    databaseEmulatorHost: "127.0.0.1:9000"),
                "http://127.0.0.1:9000/users/usernames/ann.json?ns=sesame-db"
            ),
            (
                FirebaseConfiguration(
                    apiKey: "k", projectId: "demo-project", databaseURL: "http://127.0.0.1:9000?ns=other"),
                "http://127.0.0.1:9000/users/usernames/ann.json?ns=other"
            ),
        ]
    )
    func urls(configuration: FirebaseConfiguration, url: String) async throws {
        let transport = ScriptedTransport([.json(200, "null")])
        #expect(try await directory(transport, configuration).owner(of: "ann") == nil)
        #expect(await transport.requests.map(\.url) == [url])
    }

    @Test("owner: a uid string, an object with uid, or null")
    func owner() async throws {
        let transport = ScriptedTransport([
            .json(200, #""uid-1""#), .json(200, #"{"uid":"uid-2"}"#), .json(200, "null"),
        ])
        let directory = try directory(transport)
        #expect(try await directory.owner(of: "ann,lee") == "uid-1")
        #expect(try await directory.owner(of: "bob") == "uid-2")
        #expect(try await directory.owner(of: "carol") == nil)
        #expect(await transport.snapshots[0] == "GET https://sesame-db.firebaseio.com/users/usernames/ann,lee.json")
    }

    @Test("keys and uids are percent-encoded path segments")
    func encodedSegments() async throws {
        let transport = ScriptedTransport([.json(200, "null")])
        _ = try await directory(transport).owner(of: "straße/x?y")
        #expect(
            await transport.requests.first?.url
                == "https://sesame-db.firebaseio.com/users/usernames/stra%C3%9Fe%2Fx%3Fy.json")
    }

    @Test("claim: conditional PUT with if-match null_etag")
    func claim() async throws {
        let transport = ScriptedTransport([
            .json(200, #""uid-1""#, headers: ["ETag": "abc"]),
            .json(412, #""uid-2""#, headers: ["ETag": "def"]),
            .json(412, #""uid-1""#, headers: ["ETag": "ghi"]),
        ])
        let directory = try directory(transport)
        let token = Fixtures.idToken("ID.TOKEN")
        #expect(try await directory.claim("ann", for: "uid-1", idToken: token))
        #expect(try await directory.claim("ann", for: "uid-1", idToken: token) == false)
        #expect(
            try await directory.claim("ann", for: "uid-1", idToken: token),
            "a repeated claim of one's own name succeeds")
        #expect(
            await transport.snapshots[0] == """
                PUT https://sesame-db.firebaseio.com/users/usernames/ann.json?auth=ID.TOKEN
                content-type: application/json
                if-match: null_etag

                "uid-1"
                """)
    }

    @Test("claim: security rules refusing the write over another owner means taken")
    func claimDeniedByRules() async throws {
        let transport = ScriptedTransport([
            .json(401, #"{"error":"Permission denied"}"#),
            .json(200, #""uid-2""#),
            .json(401, #"{"error":"Permission denied"}"#),
            .json(200, "null"),
        ])
        let directory = try directory(transport)
        #expect(try await directory.claim("ann", for: "uid-1", idToken: Fixtures.idToken()) == false)
        await #expect(
            throws: RemoteAuthError.rejected(
                AuthError(
                    .operationNotAllowed,
                    message: "The username directory refused the request: check the database's security rules."
                ))
        ) {
            _ = try await directory.claim("ann", for: "uid-1", idToken: Fixtures.idToken())
        }
    }

    @Test("release: read with ETag, then conditional DELETE")
    func release() async throws {
        let transport = ScriptedTransport([
            .json(200, #""uid-1""#, headers: ["ETag": "etag-1"]),
            .json(200, "null"),
        ])
        try await directory(transport).release("ann", of: "uid-1", idToken: Fixtures.idToken("ID.TOKEN"))
        #expect(
            await transport.snapshots == [
                """
                GET https://sesame-db.firebaseio.com/users/usernames/ann.json?auth=ID.TOKEN
                x-firebase-etag: true
                """,
                """
                DELETE https://sesame-db.firebaseio.com/users/usernames/ann.json?auth=ID.TOKEN
                if-match: etag-1
                """,
            ])
    }

    @Test("release leaves another owner's name alone, and an absent one")
    func releaseOthers() async throws {
        let transport = ScriptedTransport([
            .json(200, #""uid-2""#, headers: ["ETag": "e"]), .json(200, "null", headers: ["ETag": "null_etag"]),
        ])
        let directory = try directory(transport)
        try await directory.release("ann", of: "uid-1", idToken: Fixtures.idToken())
        try await directory.release("bob", of: "uid-1", idToken: Fixtures.idToken())
        #expect(await transport.requests.map(\.method) == [.GET, .GET])
    }

    @Test("release re-reads after a 412 and stops when the name changed hands")
    func releaseRace() async throws {
        let transport = ScriptedTransport([
            .json(200, #""uid-1""#, headers: ["ETag": "e1"]),
            .json(412, #""uid-3""#, headers: ["ETag": "e2"]),
            .json(200, #""uid-3""#, headers: ["ETag": "e2"]),
        ])
        try await directory(transport).release("ann", of: "uid-1", idToken: Fixtures.idToken())
        #expect(await transport.requests.map(\.method) == [.GET, .DELETE, .GET])
    }

    @Test("release gives up after repeated 412s")
    func releaseGivesUp() async throws {
        var replies: [Reply] = []
        for index in 0..<FirebaseUsernameDirectory.maximumReleaseAttempts {
            replies.append(.json(200, #""uid-1""#, headers: ["ETag": "e\(index)"]))
            replies.append(.json(412, #""uid-1""#))
        }
        let transport = ScriptedTransport(replies)
        await #expect(throws: RemoteAuthError.unavailable(status: 412)) {
            try await directory(transport).release("ann", of: "uid-1", idToken: Fixtures.idToken())
        }
    }

    @Test("details: read and write")
    func details() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"username":"Ann.Lee","email":"ann@example.com"}"#),
            .json(200, "null"),
            .json(200, #"{"username":"Ann.Lee"}"#),
        ])
        let directory = try directory(transport)
        #expect(
            try await directory.details(of: "uid-1") == UsernameDetails(username: "Ann.Lee", email: "ann@example.com"))
        #expect(try await directory.details(of: "uid-2") == nil)
        try await directory.setDetails(
            UsernameDetails(username: "Ann.Lee", email: "ann@example.com"), of: "uid-1",
            idToken: Fixtures.idToken("ID.TOKEN"))
        #expect(
            await transport.snapshots[2] == """
                PUT https://sesame-db.firebaseio.com/users/details/uid-1.json?auth=ID.TOKEN
                content-type: application/json

                {"email":"ann@example.com","username":"Ann.Lee"}
                """)
    }

    @Test("malformed records")
    func malformed() async throws {
        let transport = ScriptedTransport([.json(200, "42"), .json(200, #"{"email":"x"}"#), .json(200, "<html>")])
        let directory = try directory(transport)
        await #expect(throws: RemoteAuthError.malformedResponse("rtdb.usernames.get: not a uid")) {
            _ = try await directory.owner(of: "ann")
        }
        await #expect(throws: RemoteAuthError.malformedResponse("rtdb.details.get: not a details record")) {
            _ = try await directory.details(of: "uid-1")
        }
        await #expect(throws: RemoteAuthError.malformedResponse("rtdb.usernames.get: not JSON")) {
            _ = try await directory.owner(of: "ann")
        }
    }

    @Test(
        "error classification",
        arguments: [
            (Reply.json(401, #"{"error":"Auth token is expired"}"#), RemoteAuthError.idTokenRejected),
            (Reply.json(401, #"{"error":"Could not parse auth token."}"#), RemoteAuthError.idTokenRejected),
            (Reply.json(429, "{}"), RemoteAuthError.rateLimited(retryAfterMs: nil)),
            (Reply.json(503, #"{"error":"unavailable"}"#), RemoteAuthError.unavailable(status: 503)),
            (
                Reply.json(404, #"{"error":"not found"}"#),
                RemoteAuthError.rejected(
                    AuthError(
                        .operationNotAllowed,
                        message: "The username directory's database was not found: check firebase.database_url."))
            ),
            (
                Reply.json(400, #"{"error":"Invalid path"}"#),
                RemoteAuthError.rejected(
                    AuthError(
                        .invalidUsername, message: "The username directory refused that name."))
            ),
            (Reply.failure(.connectTimedOut), RemoteAuthError.transport("connect timed out")),
        ]
    )
    func errors(reply: Reply, expected: RemoteAuthError) async throws {
        let transport = ScriptedTransport([reply])
        await #expect(throws: expected) {
            try await directory(transport).setDetails(
                UsernameDetails(username: "a", email: nil), of: "u", idToken: Fixtures.idToken())
        }
    }
}
