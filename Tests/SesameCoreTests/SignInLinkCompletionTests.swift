import SesameCore
import Testing

private let offline = AuthError(.networkRequestFailed)
private let inUse = AuthError(.emailAlreadyInUse, email: "ann@example.com", providerId: "password")
private let missing = AuthError(
    .missingEmail,
    message: "That link was sent to another address than the remembered one: give the address it was sent to (--email)."
)

/// The proof is spent by `.linkToGuest` or `.signIn` and nothing of the flow is in the keyring
/// before: the rows marked "crash" are the restart's replay, the same inputs (the keyring still
/// holds the guest and the remembered address) and the backend as the crash left it.
@Suite("SignInLinkCompletion: completeSignInLink's choice before the proof is spent")
struct SignInLinkCompletionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var guest: String? = "g"
        var given = true
        var first: SignInLinkCompletion.Action
        var steps: [(SignInLinkCompletion.Event, SignInLinkCompletion.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "a guest, a new address: linked in place, the address forgotten",
                first: .checkEmail("ann@example.com"),
                steps: [
                    (.signInMethods([]), .linkToGuest), (.signedIn(uid: "g"), .adoptLinked),
                    (.adopted, .forgetEmailLinkAddress("ann@example.com")), (.forgotten, .done),
                ]),
            Case(
                name: "a guest, an address with an account: signs in (a merge)", first: .checkEmail("ann@example.com"),
                steps: [
                    (.signInMethods(["password"]), .signIn), (.signedIn(uid: "a"), .adoptSignIn),
                    (.adopted, .forgetEmailLinkAddress("ann@example.com")), (.forgotten, .done),
                ]),
            Case(
                name: "a guest, hidden methods: signs in, never spends the proof on a link that may fail",
                first: .checkEmail("ann@example.com"), steps: [(.signInMethods(nil), .signIn)]),
            Case(
                name: "a link answered for another uid: adopted as a sign-in", first: .checkEmail("ann@example.com"),
                steps: [(.signInMethods([]), .linkToGuest), (.signedIn(uid: "a"), .adoptSignIn)]),
            Case(
                name: "no guest: signs in straight away", guest: nil, first: .signIn,
                steps: [(.signedIn(uid: "a"), .adoptSignIn), (.adopted, .forgetEmailLinkAddress("ann@example.com"))]),
            Case(
                name: "the link is refused as a conflict: the error names the email",
                first: .checkEmail("ann@example.com"),
                steps: [(.signInMethods([]), .linkToGuest), (.failed(AuthError(.emailAlreadyInUse)), .fail(inUse))]),
            Case(
                name: "the check fails: nothing spent", first: .checkEmail("ann@example.com"),
                steps: [(.failed(offline), .fail(offline))]),
            Case(
                name: "the remembered address is not the proof's: missing-email", given: false,
                first: .checkEmail("ann@example.com"),
                steps: [(.signInMethods(["password"]), .signIn), (.failed(AuthError(.invalidEmail)), .fail(missing))]),
            Case(
                name: "a given address the proof is not for: invalid-email as it is", guest: nil, first: .signIn,
                steps: [(.failed(AuthError(.invalidEmail)), .fail(AuthError(.invalidEmail)))]),
            Case(
                name: "crash before the proof is spent: the replay does the same",
                first: .checkEmail("ann@example.com"), steps: [(.signInMethods([]), .linkToGuest)]),
            Case(
                name: "crash after the proof is spent: the replay's call is refused, the person asks for a new link",
                first: .checkEmail("ann@example.com"),
                steps: [
                    (.signInMethods([]), .linkToGuest),
                    (.failed(AuthError(.invalidActionCode)), .fail(AuthError(.invalidActionCode))),
                ]),
            Case(
                name: "crash after a link in place landed: a new link signs in to the same uid (an update, no merge)",
                first: .checkEmail("ann@example.com"),
                steps: [(.signInMethods(["emailLink"]), .signIn), (.signedIn(uid: "g"), .adoptSignIn)]),
            Case(
                name: "an event the last action cannot produce stops the job", first: .checkEmail("ann@example.com"),
                steps: [(.forgotten, .fail(AuthError(.backendUnavailable)))]),
        ])
    func steps(_ c: Case) {
        var job = SignInLinkCompletion(email: "ann@example.com", emailGiven: c.given, guestUid: c.guest)
        #expect(job.start() == c.first)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}
