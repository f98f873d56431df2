import Foundation
import SesameClient
import Testing

@testable import sesamectl

@Suite("sesamectl output")
struct SesameCtlOutputTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func state(
        status: SesameStatus = .authenticated, user: SesameUser? = nil, expiresIn: TimeInterval? = 54 * 60 + 30,
        needsUsername: Bool = false, merges: [SesameMerge] = [], connectivity: SesameConnectivity = .online
    ) -> SesameState {
        SesameState(
            status: status, user: user, tokenExpiresAt: expiresIn.map { now.addingTimeInterval($0) },
            connectivity: connectivity, needsUsername: needsUsername, pendingMerges: merges, sequence: 3)
    }

    @Test func statusOfAGuest() {
        let text = StatusRenderer.render(
            Self.state(status: .anonymous, user: SesameUser(uid: "guest-1", isAnonymous: true)), now: Self.now)
        #expect(
            text == """
                status:          anonymous
                uid:             guest-1
                account:         anonymous (guest)
                token:           valid for 54 min
                connectivity:    online
                pending merges:  none
                """)
    }

    @Test func statusOfAnAccount() {
        let user = SesameUser(
            uid: "ann", isAnonymous: false, email: "ann@example.com", emailVerified: false, username: nil,
            providers: ["password", "google.com"])
        let merge = SesameMerge(mergeId: "m1", fromUid: "g", toUid: "ann", createdAt: Self.now)
        let text = StatusRenderer.render(
            Self.state(user: user, needsUsername: true, merges: [merge], connectivity: .offline), now: Self.now)
        #expect(text.contains("account:         account (signs in with password, google.com)"))
        #expect(text.contains("email:           ann@example.com (not verified: run `sesamectl verify-email`)"))
        #expect(text.contains("username:        none, but one is required: run `sesamectl username set NAME`"))
        #expect(text.contains("connectivity:    offline"))
        #expect(text.contains("pending merges:  1 (`sesamectl merges list`)"))
    }

    @Test func statusWithoutTokenOrUser() {
        let text = StatusRenderer.render(Self.state(status: .signedOut, expiresIn: nil), now: Self.now)
        #expect(text.hasPrefix("status:          signed out\ntoken:           none"))
        let expired = StatusRenderer.render(
            Self.state(status: .anonymous, user: SesameUser(uid: "g", isAnonymous: true), expiresIn: -10), now: Self.now
        )
        #expect(expired.contains("token:           expired"))
    }

    @Test func oneLineSummaries() {
        #expect(StatusRenderer.oneLine(Self.state(status: .signedOut)) == "signed out")
        #expect(
            StatusRenderer.oneLine(Self.state(user: SesameUser(uid: "g", isAnonymous: true)))
                == "anonymous guest (uid g)")
        #expect(
            StatusRenderer.oneLine(Self.state(user: SesameUser(uid: "a", isAnonymous: false, email: "a@x.org")))
                == "signed in as a@x.org (uid a)")
    }

    @Test func mergeList() {
        #expect(StatusRenderer.mergeLines([]) == "no pending merges")
        let merge = SesameMerge(mergeId: "m1", fromUid: "g", toUid: "ann", createdAt: Date(timeIntervalSince1970: 0))
        #expect(StatusRenderer.mergeLines([merge]) == "m1  g -> ann  since 1970-01-01T00:00:00Z")
    }

    static func daemonError(_ reason: String, code: Int = 1000, email: String? = nil) -> SesameClientError {
        .daemon(.init(code: code, reason: reason, message: "daemon says", email: email))
    }

    @Test func emailAlreadyInUseSaysToSignIn() {
        let report = ErrorReport.make(
            for: Self.daemonError("email-already-in-use", email: "ann@example.com"), socketPath: "/s")
        #expect(report.status == .failure)
        #expect(
            report.message
                == "that email has an account: run `sesamectl sign-in ann@example.com`; your guest data will be merged into it"
        )
    }

    @Test func unreachableIsSixtyNineAndNamesTheSocket() {
        let report = ErrorReport.make(
            for: .daemonUnreachable(socketPath: "/run/sesame/sesamed.sock", detail: "no such file or directory"),
            socketPath: "/run/sesame/sesamed.sock")
        #expect(report.status == .unavailable)
        #expect(report.status.rawValue == 69)
        #expect(report.message.contains("/run/sesame/sesamed.sock"))
        #expect(report.message.contains("systemctl start sesamed.socket"))
        #expect(report.message.contains("make run"))
        #expect(!report.message.contains("\n"))
    }

    @Test func permissionDeniedIsSixtyNineAndSaysWhichGroupToJoin() {
        let path = "/run/sesame/sesamed.sock"
        let report = ErrorReport.make(for: .permissionDenied(socketPath: path, group: "sesame"), socketPath: path)
        #expect(report.status == .unavailable)
        #expect(
            report.message
                == "permission denied on /run/sesame/sesamed.sock: join group sesame (or ask an administrator)")
        #expect(!report.message.contains("systemctl start"))
    }

    @Test func noAnswerIsSixtyNineAndNamesTheSocketAndTheWait() {
        let path = "/run/sesame/sesamed.sock"
        let report = ErrorReport.make(for: .noAnswer(socketPath: path, timeout: .milliseconds(2500)), socketPath: path)
        #expect(report.status == .unavailable)
        #expect(report.message.hasPrefix("sesamed at /run/sesame/sesamed.sock did not answer within 2.5 s: "))
        #expect(report.message.contains("--timeout"))
        #expect(ErrorReport.secondsWords(.seconds(5)) == "5 s")
    }

    @Test(arguments: [
        ("requires-reset-confirmation", "sesamectl sign-out --reset"),
        ("invalid-login-credentials", "sesamectl reset-password"),
        ("missing-email", "--email"),
        ("already-signed-in", "sesamectl sign-out"),
        ("requires-account", "sesamectl sign-up"),
        ("no-such-merge", "sesamectl merges list"),
        ("method-not-found", "upgrade sesamed"),
        ("username-taken", "username check"),
    ])
    func everyStateAndAuthenticationErrorSaysWhatToDoNext(reason: String, hint: String) {
        let report = ErrorReport.make(for: Self.daemonError(reason), socketPath: "/s")
        #expect(report.status == .failure)
        #expect(report.message.contains(hint))
    }

    @Test func backendErrorsSayWhenToRetry() {
        let error = SesameClientError.daemon(
            .init(code: 2000, reason: "network-request-failed", message: "offline", retryAfterMs: 1500))
        #expect(
            ErrorReport.make(for: error, socketPath: "/s").message
                == "the backend cannot be reached right now (network-request-failed): try again in 2 s")
    }

    @Test func aRateLimitIsNotToldAsAnOutageAndGivesTheBackendsWait() {
        let error = SesameClientError.daemon(
            .init(code: 2000, reason: "too-many-requests", message: "slow down", retryAfterMs: 58_000))
        #expect(
            ErrorReport.make(for: error, socketPath: "/s").message
                == "the backend limits how often this can be done (too-many-requests): try again in 58 s")
    }

    @Test func unknownReasonsFallBackToTheDaemonsMessage() {
        let report = ErrorReport.make(for: Self.daemonError("something-new", code: 4000), socketPath: "/s")
        #expect(report.message == "daemon says (something-new)")
        #expect(report.status == .failure)
    }

    @Test func permissionDeniedNamesTheRole() {
        let error = SesameClientError.daemon(
            .init(code: 3000, reason: "permission-denied", message: "no", requiredRole: "reader"))
        #expect(ErrorReport.make(for: error, socketPath: "/s").message.contains("the reader role"))
    }

    @Test func watchLines() {
        let state = Self.state(user: SesameUser(uid: "ann", isAnonymous: false, email: "ann@example.com"))
        let notification = SesameNotification(
            event: .authStateChanged(state: state, previousUid: "g", reason: .merged), sequence: 4,
            jsonLine: "{\"jsonrpc\":\"2.0\"}")
        #expect(
            NotificationRenderer.line(for: notification, json: false)
                == "#4 authStateChanged merged: signed in as ann@example.com (uid ann), was g")
        #expect(NotificationRenderer.line(for: notification, json: true) == "{\"jsonrpc\":\"2.0\"}")
        let local = SesameNotification(event: .connectionLost(.connectionClosed), sequence: nil, jsonLine: nil)
        #expect(NotificationRenderer.line(for: local, json: true) == nil)
        #expect(NotificationRenderer.line(for: local, json: false)?.hasSuffix("; reconnecting") == true)
    }

    @Test func signInResultJSONHoldsTheMergeAndTheState() {
        let state = SesameState(
            status: "anonymous", user: nil, tokenExpiresAt: nil, connectivity: "online", needsUsername: false,
            pendingMerges: [], sequence: 3)
        let json = SignInResultText.json((state: state, merge: nil))
        #expect(json["merge"] == .null)
        #expect(json["state"] == state.json)
    }

    @Test func theManualPageListsEveryCommand() {
        let page = ManualPage.render()
        #expect(page.hasPrefix(".TH SESAMECTL 1"))
        for command in [
            "status", "token", "watch", "sign\\-up", "sign\\-in", "send\\-link", "complete\\-link",
            "sign\\-in\\-idp", "link password", "link email\\-link", "link idp", "unlink", "sign\\-out",
            "username set", "username check", "reset\\-password", "merges list", "merges complete",
            "delete\\-account", "verify\\-email", "update\\-profile", "reload", "mfa enroll", "mfa list",
            "mfa remove", "reauth", "change\\-password", "change\\-email",
        ] {
            #expect(
                page.contains(".SS \"sesamectl \(command.replacingOccurrences(of: "\\-", with: "-"))\""), "\(command)")
        }
        #expect(!page.contains("help-man"))
    }
}
