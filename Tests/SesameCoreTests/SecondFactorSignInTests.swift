import SesameCore
import Testing

private let offline = AuthError(.networkRequestFailed)
private let wrongCode = AuthError(.invalidVerificationCode)
private let expired = AuthError(
    .expiredSignInFlow, message: "The second-factor challenge expired: sign in again to get a new one.")
private let another = AuthError(
    .invalidCredential,
    message: "That is another account: sign in again with the account that is signed in on this machine.")

/// Nothing of a challenge is in the keyring, and the adoption is one keyring write: the rows
/// marked "crash" are the restart's replay — the challenge is gone (an id from before the
/// restart is refused before any step), so a crash before the adoption leaves the keyring as it
/// was, and a crash after it leaves the adopted session (and at most the remembered address).
@Suite("SecondFactorSignIn: completeSecondFactor's steps and crash points")
struct SecondFactorSignInTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var finish: SecondFactorSignIn.Finish = .signIn(guestUid: "g", forgetAddress: nil)
        var expired = false
        var first: SecondFactorSignIn.Action = .verify
        var steps: [(SecondFactorSignIn.Event, SecondFactorSignIn.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "a password sign-in from a guest: closed, then adopted (a merge)",
                steps: [(.verified(uid: "a"), .closeChallenge), (.closed, .adoptSignIn), (.adopted, .done)]),
            Case(
                name: "a link that landed on the guest itself: adopted as linked",
                steps: [(.verified(uid: "g"), .closeChallenge), (.closed, .adoptLinked), (.adopted, .done)]),
            Case(
                name: "an email link: the remembered address is forgotten after the adoption",
                finish: .signIn(guestUid: "g", forgetAddress: "ann@example.com"),
                steps: [
                    (.verified(uid: "a"), .closeChallenge), (.closed, .adoptSignIn),
                    (.adopted, .forgetEmailLinkAddress("ann@example.com")), (.forgotten, .done),
                ]),
            Case(
                name: "signed out or from an account: adopted by signIn's rules",
                finish: .signIn(guestUid: nil, forgetAddress: nil),
                steps: [(.verified(uid: "a"), .closeChallenge), (.closed, .adoptSignIn)]),
            Case(
                name: "a reauthentication of the same uid: adopted as an update",
                finish: .reauthenticate(uid: "a"),
                steps: [(.verified(uid: "a"), .closeChallenge), (.closed, .adoptReauthentication), (.adopted, .done)]),
            Case(
                name: "a reauthentication that reached another account: nothing adopted",
                finish: .reauthenticate(uid: "a"),
                steps: [(.verified(uid: "b"), .closeChallenge), (.closed, .fail(another))]),
            Case(
                name: "a wrong code: the challenge stays open", steps: [(.failed(wrongCode), .fail(wrongCode))]),
            Case(
                name: "the backend down between the factors: the challenge stays open for a retry",
                steps: [(.failed(offline), .fail(offline))]),
            Case(
                name: "the backend no longer takes the pending sign-in: closed, then the error",
                steps: [
                    (.failed(AuthError(.expiredSignInFlow)), .closeChallenge),
                    (.closed, .fail(AuthError(.expiredSignInFlow))),
                ]),
            Case(
                name: "expired on the daemon's clock: closed without asking the backend", expired: true,
                first: .closeChallenge, steps: [(.closed, .fail(expired))]),
            Case(
                name: "crash before verify: the replay finds no challenge; the keyring holds the guest",
                steps: []),
            Case(
                name: "crash after verify, before the adoption: nothing written, the guest intact; sign in again",
                steps: [(.verified(uid: "a"), .closeChallenge)]),
            Case(
                name: "crash after the adoption, before forgetting the address: only the address is left",
                finish: .signIn(guestUid: "g", forgetAddress: "ann@example.com"),
                steps: [
                    (.verified(uid: "a"), .closeChallenge), (.closed, .adoptSignIn),
                    (.adopted, .forgetEmailLinkAddress("ann@example.com")),
                ]),
            Case(
                name: "the adoption failed (signed out meanwhile): the error",
                finish: .reauthenticate(uid: "a"),
                steps: [
                    (.verified(uid: "a"), .closeChallenge), (.closed, .adoptReauthentication),
                    (.failed(AuthError(.noCurrentUser)), .fail(AuthError(.noCurrentUser))),
                ]),
            Case(
                name: "a password reset (GoTrue): the new password set in the verified session, nothing adopted",
                finish: .passwordReset(newPassword: "n3w-secret"),
                steps: [(.verified(uid: "a"), .closeChallenge), (.closed, .setNewPassword), (.adopted, .done)]),
            Case(
                name: "a password reset whose new password is refused: the error (the verified session is ended)",
                finish: .passwordReset(newPassword: "n3w-secret"),
                steps: [
                    (.verified(uid: "a"), .closeChallenge), (.closed, .setNewPassword),
                    (.failed(AuthError(.weakPassword)), .fail(AuthError(.weakPassword))),
                ]),
            Case(
                name: "crash after verify of a reset, before the password is set: the old password stands; reset again",
                finish: .passwordReset(newPassword: "n3w-secret"),
                steps: [(.verified(uid: "a"), .closeChallenge), (.closed, .setNewPassword)]),
            Case(
                name: "an event the last action cannot produce stops the job",
                steps: [(.adopted, .fail(AuthError(.backendUnavailable)))]),
        ])
    func steps(_ c: Case) {
        #expect(!"\(c.finish)".contains("n3w-secret"))
        var job = SecondFactorSignIn(finish: c.finish)
        #expect(job.start(expired: c.expired) == c.first)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}

/// The request writes the pending address before it is shown; the confirmation syncs the
/// username record before the address is forgotten. The "crash" rows are what the restart
/// finds and does.
@Suite("EmailChange: changeEmail's steps, its confirmation and crash points")
struct EmailChangeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var hasUsername = true
        var confirming = false
        var first: EmailChange.Action
        var steps: [(EmailChange.Event, EmailChange.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "the request: mailed, remembered, shown", first: .request("new@example.com"),
                steps: [
                    (.requested, .remember("new@example.com")), (.remembered, .show("new@example.com")),
                    (.shown, .done),
                ]),
            Case(
                name: "the address is taken: email-already-in-use names it", first: .request("new@example.com"),
                steps: [
                    (
                        .failed(AuthError(.emailAlreadyInUse)),
                        .fail(AuthError(.emailAlreadyInUse, email: "new@example.com"))
                    )
                ]),
            Case(
                name: "not recent enough: requires-recent-login as the backend said",
                first: .request("new@example.com"),
                steps: [(.failed(AuthError(.requiresRecentLogin)), .fail(AuthError(.requiresRecentLogin)))]),
            Case(
                name:
                    "crash after the request, before remembering: nothing pending shown; the confirmation shows the email",
                first: .request("new@example.com"), steps: [(.requested, .remember("new@example.com"))]),
            Case(
                name: "crash after remembering, before showing: the next lookup shows it from the keyring",
                first: .request("new@example.com"),
                steps: [(.requested, .remember("new@example.com")), (.remembered, .show("new@example.com"))]),
            Case(
                name: "confirmed with a username: the record follows, then the address is forgotten", confirming: true,
                first: .syncUsernameRecord, steps: [(.synced, .forget), (.forgotten, .done)]),
            Case(
                name: "confirmed without a username: forgotten", hasUsername: false, confirming: true, first: .forget,
                steps: [(.forgotten, .done)]),
            Case(
                name: "the record cannot be written: the address stays remembered, the next lookup retries",
                confirming: true, first: .syncUsernameRecord,
                steps: [(.failed(AuthError(.backendUnavailable)), .fail(AuthError(.backendUnavailable)))]),
            Case(
                name: "crash after the sync, before forgetting: the next lookup syncs again (idempotent) and forgets",
                confirming: true, first: .syncUsernameRecord, steps: [(.synced, .forget)]),
            Case(
                name: "an event the last action cannot produce stops the job", first: .request("new@example.com"),
                steps: [(.forgotten, .fail(AuthError(.backendUnavailable)))]),
        ])
    func steps(_ c: Case) {
        var job = EmailChange(newEmail: "new@example.com", hasUsername: c.hasUsername)
        #expect((c.confirming ? job.confirm() : job.start()) == c.first)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}
