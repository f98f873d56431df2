import Foundation
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// The adapters log endpoint names, statuses and error codes, and never a secret.
@Suite("Firebase adapters: logging")
struct FirebaseLoggingTests {
    static let secrets = [
        "SECRET-API-KEY", "SECRET-PASSWORD", "SECRET-CODE", "SECRET.ID.TOKEN", "SECRET-REFRESH", "SECRET-IDP",
    ]

    @Test("requests and responses describe themselves without secrets")
    func redactedDescriptions() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"users":[{"localId":"u","displayName":"SECRET-NAME"}]}"#),
            Fixtures.signInAnswer(refresh: "SECRET-REFRESH"),
        ])
        let configuration = FirebaseConfiguration(apiKey: "SECRET-API-KEY", projectId: "p")
        _ = try await Fixtures.provider(transport, configuration: configuration)
            .signUp(email: "a@b.c", password: "SECRET-PASSWORD", linkingTo: Fixtures.idToken("SECRET.ID.TOKEN"))
        let requests = await transport.requests
        #expect(requests.map { "\($0)" } == ["POST accounts:lookup (redacted)", "POST accounts:signUp (redacted)"])
        #expect("\(HTTPResponse(status: 200, text: "SECRET-REFRESH"))" == "HTTP 200 (14 bytes)")
    }

    @Test("no log line contains a key, token, password or code")
    func noSecrets() async throws {
        let (logger, storage) = RecordingLogHandler.logger()
        let configuration = FirebaseConfiguration(
            apiKey: "SECRET-API-KEY", projectId: "p", databaseURL: "https://db.firebaseio.com"
        )
        let transport = ScriptedTransport([
            .json(200, #"{"users":[{"localId":"u"}]}"#),
            Fixtures.signInAnswer(refresh: "SECRET-REFRESH"),
            .error(400, "INVALID_PASSWORD"),
            .error(400, "INVALID_OOB_CODE"),
            .failure(.requestTimedOut),
            .json(200, "not json"),
            .json(503, "{}"),
            .json(200, #""uid-1""#),
            .json(401, #"{"error":"Permission denied"}"#),
        ])
        let provider = FirebaseAuthProvider(
            configuration: configuration, transport: transport, logger: logger, now: { Fixtures.now })
        let directory = try #require(
            FirebaseUsernameDirectory(configuration: configuration, transport: transport, logger: logger))
        let token = Fixtures.idToken("SECRET.ID.TOKEN")
        _ = try? await provider.signUp(email: "a@b.c", password: "SECRET-PASSWORD", linkingTo: token)
        _ = try? await provider.signIn(email: "a@b.c", password: "SECRET-PASSWORD")
        _ = try? await provider.signIn(email: "a@b.c", proof: .link(Fixtures.signInLink("SECRET-CODE")), linkingTo: nil)
        _ = try? await provider.refresh(RefreshToken("SECRET-REFRESH"))
        _ = try? await provider.signIn(
            federated: FederatedCredential(providerId: "google.com", idToken: "SECRET-IDP", accessToken: nil),
            linkingTo: token)
        _ = try? await provider.lookup(token)
        _ = try? await directory.owner(of: "ann")
        _ = try? await directory.claim("ann", for: "uid-1", idToken: token)

        let lines = storage.all
        #expect(lines.count >= 8)
        #expect(lines.contains { $0.contains("accounts:signInWithPassword") && $0.contains("INVALID_PASSWORD") })
        #expect(lines.contains { $0.contains("securetoken:token") })
        for line in lines {
            for secret in Self.secrets {
                #expect(!line.contains(secret), "\(line)")
            }
        }
    }

    @Test("each call logs one line: its name, status and code, or why it failed")
    func oneLinePerCall() async throws {
        let (logger, storage) = RecordingLogHandler.logger()
        let transport = ScriptedTransport([
            Fixtures.signInAnswer(refresh: "SECRET-REFRESH"),
            .error(400, "INVALID_PASSWORD : SECRET-PASSWORD is wrong"),
            .json(200, "<html>SECRET-PAGE</html>"),
            .failure(.connectTimedOut),
        ])
        let provider = FirebaseAuthProvider(
            configuration: Fixtures.production, transport: transport, logger: logger, now: { Fixtures.now })
        for _ in 0..<4 {
            _ = try? await provider.signIn(email: "a@b.c", password: "SECRET-PASSWORD")
        }
        let lines = storage.all
        #expect(lines.count == 4, "\(lines)")
        guard lines.count == 4 else { return }
        let call = "firebase.call=accounts:signInWithPassword"
        #expect(lines[0].contains("firebase call answered") && lines[0].contains(call))
        #expect(lines[1].contains("firebase call refused") && lines[1].contains("firebase.error_code=INVALID_PASSWORD"))
        #expect(lines[2].contains("firebase call answered unreadably") && lines[2].contains("not JSON"))
        #expect(lines[3].contains("firebase call failed") && lines[3].contains("connect timed out"))
        for line in lines {
            #expect(line.contains(call))
            #expect(!line.contains("SECRET") && !line.contains("test-key"), "\(line)")
        }
    }
}
