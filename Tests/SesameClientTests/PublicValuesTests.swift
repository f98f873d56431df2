import Foundation
import SesameLocalAPI
import Testing

@testable import SesameClient

/// The client's public values are the protocol's wire objects: what the daemon sends is
/// what an app reads, with no copy in between.
@Suite("Public values are the wire objects")
struct PublicValuesTests {
    static let created = Date(timeIntervalSince1970: 1_800_000_000)

    static let state = SesameState(
        status: .authenticated,
        user: SesameUser(
            uid: "ann", isAnonymous: false, email: "ann@example.com", emailVerified: true, displayName: "Ann",
            username: "ann.lee", providers: ["password"], createdAt: created, lastSignInAt: created),
        tokenExpiresAt: created.addingTimeInterval(3600), connectivity: .offline, needsUsername: false,
        pendingMerges: [SesameMerge(mergeId: "m1", fromUid: "g", toUid: "ann", createdAt: created)], sequence: 7)

    @Test func aStateReadsBackFromItsOwnJSON() throws {
        let read = try #require(SesameState(json: Self.state.json))
        #expect(read == Self.state)
        #expect(read.status == .authenticated)
        #expect(read.connectivity == .offline)
        #expect(read.user?.username == "ann.lee")
    }

    @Test func theReasonAStreamGivesIsNotPartOfTheWireObject() throws {
        let yielded = try SesameState.decode(Self.state.json, reason: .signedIn)
        #expect(yielded.changeReason == .signedIn)
        #expect(yielded.json == Self.state.json)
        #expect(SesameState(json: yielded.json)?.changeReason == nil)
    }

    @Test func aStatusOrConnectivityANewerDaemonSendsSurvives() throws {
        var object = try #require(Self.state.json.objectValue)
        object["status"] = "suspended"
        object["connectivity"] = "metered"
        let read = try #require(SesameState(json: .object(object)))
        #expect(read.status.rawValue == "suspended")
        #expect(read.connectivity.rawValue == "metered")
        #expect(read.json["status"] == "suspended")
    }

    @Test func theServerSpellingBuildsTheSameValue() {
        let server = WireState(
            status: "authenticated", user: Self.state.user, tokenExpiresAt: Self.state.tokenExpiresAt,
            connectivity: "offline", needsUsername: false, pendingMerges: Self.state.pendingMerges, sequence: 7)
        #expect(server == Self.state)
    }

    @Test func aHelloKeepsBothSpellingsOfItsProtocolVersion() throws {
        let hello = SesameHello(
            server: "sesamed", version: "1.2", protocolVersion: 1, instance: "i1", role: .reader, peerUid: 1000,
            peerGid: 1000, peerPid: 42)
        #expect(
            hello
                == WireHello(
                    version: "1.2", protocol: 1, instance: "i1", role: .reader, peerUid: 1000, peerGid: 1000,
                    peerPid: 42))
        let read = try SesameHello.decode(hello.json)
        #expect(read.protocolVersion == 1)
        #expect(read.role == .reader)
        #expect(read.role < .manager)
    }

    @Test func aTokenReadsBackAndItsDescriptionRedactsIt() throws {
        let token = SesameIDToken(
            token: "eyJ.secret.jwt", uid: "ann", expiresAt: Self.created.addingTimeInterval(3600),
            issuedAt: Self.created, signInProvider: "password")
        #expect(try SesameIDToken.decode(token.json) == token)
        #expect(!token.description.contains("secret"))
        #expect("\(token)".contains("ann"))
    }

    @Test func resultsWithoutTheProtocolsShapeAreProtocolErrors() {
        #expect(throws: SesameClientError.protocolError("a State without status or sequence")) {
            try SesameState.decode(["status": "anonymous"])
        }
        #expect(throws: SesameClientError.protocolError("a Merge without mergeId, fromUid or toUid")) {
            try SesameState.decodeWithMerge(["state": Self.state.json, "merge": ["mergeId": "m1"]])
        }
    }
}
