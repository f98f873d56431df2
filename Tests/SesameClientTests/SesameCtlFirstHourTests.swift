import Foundation
import SesameClient
import Testing

@testable import sesamectl

/// The advice and manners of issue 24 ("a new user's first hour"), on sesamectl's pure parts.
@Suite("sesamectl first hour")
struct SesameCtlFirstHourTests {
    static func report(_ reason: String, code: Int = 1000, context: ErrorContext = .general) -> String {
        ErrorReport.make(
            for: .daemon(.init(code: code, reason: reason, message: "daemon says")), socketPath: "/s", context: context
        ).message
    }

    @Test func verifyEmailAsAGuestSaysToSignUpNotToAddAnOption() {
        let message = Self.report("missing-email", context: .verifyEmail)
        #expect(message.contains("has no email address"))
        #expect(message.contains("`sesamectl sign-up EMAIL`"))
        #expect(!message.contains("--email"))
    }

    @Test(arguments: ["invalid-action-code", "expired-action-code"])
    func aSpentOrExpiredLinkSaysToRequestANewOne(reason: String) {
        for context in [ErrorContext.general, .completeLink, .completeCode] {
            let message = Self.report(reason, context: context)
            #expect(message.contains("sesamectl send-link"), "\(context)")
            #expect(!message.contains("--email"), "\(context)")
        }
    }

    @Test func aLinkWithoutAKnownAddressSaysFirstThatItMayBeSpent() {
        let message = Self.report("missing-email", context: .completeLink)
        let newLink = try? #require(message.range(of: "sesamectl send-link"))
        let option = try? #require(message.range(of: "--email"))
        if let newLink, let option { #expect(newLink.lowerBound < option.lowerBound) }
    }

    @Test func aCodeOnFirebaseSaysToUseTheLink() {
        let message = Self.report("operation-not-allowed", context: .completeCode)
        #expect(message.contains("Firebase"))
        #expect(message.contains("sesamectl complete-link URL"))
    }

    @Test func sessionRevokedSaysAGuestSessionStarted() {
        let message = Self.report("session-revoked", code: 4000)
        #expect(message.contains("no longer knows"))
        #expect(message.contains("new guest session"))
        #expect(message.contains("run the command again"))
    }

    @Test func aSocketOfGroupRootIsNotAGroupToJoin() {
        let path = "/run/sesame/sesamed.sock"
        let message = ErrorReport.make(for: .permissionDenied(socketPath: path, group: "root"), socketPath: path)
            .message
        #expect(!message.contains("join group"))
        #expect(message.contains("socket.group"))
        #expect(message.contains("access.readers"))
        #expect(message.contains("sudo"))
    }

    static func state(_ user: SesameUser?) -> SesameState {
        SesameState(
            status: user == nil ? .signedOut : (user!.isAnonymous ? .anonymous : .authenticated), user: user,
            tokenExpiresAt: nil, connectivity: .online, needsUsername: false, pendingMerges: [], sequence: 1)
    }

    @Test func deletingAnAccountIsConfirmedByTypingItsEmail() throws {
        let user = SesameUser(uid: "ann-1", isAnonymous: false, email: "Ann@Example.com")
        let question = try #require(DeleteConfirmation(state: Self.state(user)))
        #expect(question.prompt.contains("Type Ann@Example.com to confirm"))
        #expect(question.accepts("ann@example.com\n"))
        #expect(question.accepts("  Ann@Example.com "))
        #expect(!question.accepts("y"))
        #expect(!question.accepts("yes"))
        #expect(!question.accepts(""))
        #expect(!question.accepts("bob@example.com"))
    }

    @Test func anAccountWithoutEmailIsConfirmedByItsUsername() throws {
        let user = SesameUser(
            uid: "u", isAnonymous: false, email: nil, emailVerified: false, username: "ann.lee",
            providers: ["google.com"])
        let question = try #require(DeleteConfirmation(state: Self.state(user)))
        #expect(question.accepts("ann.lee"))
        #expect(!question.accepts("u"))
    }

    @Test func deletingAGuestIsAYesOrNo() throws {
        let question = try #require(
            DeleteConfirmation(state: Self.state(SesameUser(uid: "g-1", isAnonymous: true))))
        #expect(question.prompt.hasSuffix("[y/N] "))
        #expect(question.accepts("y") && question.accepts("YES"))
        #expect(!question.accepts("") && !question.accepts("n") && !question.accepts("g-1"))
        #expect(DeleteConfirmation(state: Self.state(nil)) == nil)
    }

    @Test func ownUsernameIsYours() {
        let mine = SesameUsernameAvailability(username: "cy.young", available: true, reason: nil)
        let state = Self.state(
            SesameUser(uid: "c", isAnonymous: false, email: "cy@example.com", emailVerified: true, username: "cy.young")
        )
        #expect(UsernameCheckCommand.isOwnName(mine, of: state))
        #expect(UsernameCheckCommand.text(mine, isOwn: true) == "cy.young is your username")
        let other = SesameUsernameAvailability(username: "cy.old", available: true, reason: nil)
        #expect(!UsernameCheckCommand.isOwnName(other, of: state))
        #expect(UsernameCheckCommand.text(other, isOwn: false) == "cy.old is available")
        #expect(!UsernameCheckCommand.isOwnName(mine, of: Self.state(SesameUser(uid: "g", isAnonymous: true))))
    }

    @Test func aTokenShorterThanMinValidityIsWarnedAbout() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let token = SesameIDToken(
            token: "t", uid: "u", expiresAt: now.addingTimeInterval(3600), issuedAt: now, signInProvider: "anonymous")
        #expect(TokenValidityWarning.text(for: token, minValidity: 300, now: now) == nil)
        #expect(TokenValidityWarning.text(for: token, minValidity: 3600, now: now) == nil)
        let warning = TokenValidityWarning.text(for: token, minValidity: 7200, now: now)
        #expect(warning?.contains("valid only for 60 minutes") == true, "\(warning ?? "nil")")
        #expect(warning?.contains("--min-validity 7200") == true)
        #expect(TokenValidityWarning.words(45) == "45 seconds")
    }

    @Test func watchPrintsTheStateOnConnecting() {
        let hello = SesameHello(
            server: "sesamed", version: "1", protocolVersion: 1, instance: "i", role: .reader, peerUid: 0,
            peerGid: 0, peerPid: 1)
        let state = Self.state(SesameUser(uid: "g-1", isAnonymous: true))
        let connected = SesameNotification(event: .connected(hello), sequence: nil, jsonLine: nil, state: state)
        #expect(NotificationRenderer.stateLine(for: connected) == "state: anonymous guest (uid g-1)")
        let other = SesameNotification(event: .connectivityChanged(.online), sequence: 2, jsonLine: "{}")
        #expect(NotificationRenderer.stateLine(for: other) == nil)
    }
}
