import Foundation
import SesameClient
import Testing

@testable import sesamectl

/// Issue 31 (a new user's first hour, second round), on sesamectl's pure parts: the words a
/// person reads, and how `reauth` picks its proof.
@Suite("sesamectl first hour, issue 31")
struct SesameCtlIssue31Tests {
    static func report(_ reason: String, email: String? = nil) -> String {
        ErrorReport.make(
            for: .daemon(.init(code: 4000, reason: reason, message: "daemon says", email: email)), socketPath: "/s"
        ).message
    }

    @Test func anAccountWithNothingToNameItByIsItsUid() {
        let kiosk = SesameUser(uid: "kiosk-42", isAnonymous: false, providers: [])
        #expect(StatusRenderer.oneLine(SesameCtlFirstHourTests.state(kiosk)) == "signed in as uid kiosk-42")
        let custom = SesameUser(uid: "kiosk-7", isAnonymous: false, providers: ["custom"])
        #expect(StatusRenderer.oneLine(SesameCtlFirstHourTests.state(custom)) == "signed in as custom (uid kiosk-7)")
    }

    @Test func thePendingAddressSaysWhatToDoNotWhatToRunAgain() {
        let user = SesameUser(
            uid: "ann", isAnonymous: false, email: "ann@example.com", providers: ["password"],
            pendingEmail: "new@example.com")
        let text = StatusRenderer.render(SesameCtlFirstHourTests.state(user), now: Date())
        #expect(text.contains("open the link mailed to new@example.com"))
        #expect(!text.contains("`sesamectl change-email`"))
    }

    @Test func changedCredentialsSayWhatHappenedAndToSignInWithTheNewOne() {
        let named = Self.report("credentials-changed", email: "new@example.com")
        #expect(named.contains("changed to new@example.com"))
        #expect(named.contains("`sesamectl sign-in new@example.com`"))
        #expect(!named.contains("deleted"))
        let unnamed = Self.report("credentials-changed")
        #expect(unnamed.contains("password or email address changed"))
        #expect(unnamed.contains("sign in again with the new one"))
        #expect(!unnamed.contains("deleted"))
    }

    @Test func aSignInOverAnAccountSaysToSignOutFirst() {
        let message = Self.report("already-signed-in")
        #expect(message.contains("run `sesamectl sign-out` first"))
    }

    @Test func reauthPicksThePasswordElseTheProvider() {
        let password = SesameUser(uid: "a", isAnonymous: false, providers: ["password", "google.com"])
        #expect(ReauthCommand.proof(for: password, providerWanted: false) == .password)
        #expect(ReauthCommand.proof(for: password, providerWanted: true) == .provider("google.com"))
        let google = SesameUser(uid: "b", isAnonymous: false, providers: ["google.com"])
        #expect(ReauthCommand.proof(for: google, providerWanted: false) == .provider("google.com"))
        let kiosk = SesameUser(uid: "c", isAnonymous: false, providers: ["custom"])
        guard case .impossible(let why) = ReauthCommand.proof(for: kiosk, providerWanted: false) else {
            Issue.record("a custom-token account has no proof")
            return
        }
        #expect(why.contains("neither a password nor a provider"))
        let onlyPassword = SesameUser(uid: "d", isAnonymous: false, providers: ["password"])
        guard case .impossible = ReauthCommand.proof(for: onlyPassword, providerWanted: true) else {
            Issue.record("--device on a password-only account")
            return
        }
        // A guest is left to sesamed, which answers requires-account.
        #expect(ReauthCommand.proof(for: SesameUser(uid: "g", isAnonymous: true), providerWanted: false) == .password)
    }
}
