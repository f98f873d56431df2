import SesameCore
import Testing

private let password = Credential.password(email: "ann@example.com", password: "hunter22")
private let emailLink = Credential.emailLink(email: "ann@example.com", link: "https://example.com/link")
private let google = Credential.federated(providerId: "google.com", idToken: "idp", accessToken: nil)
private let inUse = AuthError(.emailAlreadyInUse, email: "ann@example.com", providerId: "password")
private let offline = AuthError(.networkRequestFailed)

/// Nothing of the flow is in the keyring before the link: the rows marked "crash" are the
/// restart's replay, the same inputs (the keyring as it was) and the backend as the crash left it.
@Suite("CredentialLink: linkCredential's steps")
struct CredentialLinkTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var credential: Credential
        var anonymous = true
        var email: String?
        var first: CredentialLink.Action
        var steps: [(CredentialLink.Event, CredentialLink.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "a guest links a password: in place, the username email follows", credential: password,
                first: .link,
                steps: [
                    (.linked(uid: "g", email: "ann@example.com"), .adoptLinked), (.adopted, .syncUsernameEmail),
                    (.synced, .done),
                ]),
            Case(
                name: "an account links a federated identity: an update, the email unchanged", credential: google,
                anonymous: false, email: "ann@example.com", first: .link,
                steps: [(.linked(uid: "g", email: "ann@example.com"), .adoptUpdated), (.adopted, .done)]),
            Case(
                name: "an email link to a new address: checked before the code is spent, then forgotten",
                credential: emailLink, first: .checkEmail("ann@example.com"),
                steps: [
                    (.signInMethods([]), .link), (.linked(uid: "g", email: "ann@example.com"), .adoptLinked),
                    (.adopted, .syncUsernameEmail), (.synced, .forgetEmailLinkAddress("ann@example.com")),
                    (.forgotten, .done),
                ]),
            Case(
                name: "an email link to an address another account has: refused, the code not spent",
                credential: emailLink, first: .checkEmail("ann@example.com"),
                steps: [(.signInMethods(["password"]), .fail(inUse))]),
            Case(
                name: "hidden sign-in methods: the backend decides", credential: emailLink,
                first: .checkEmail("ann@example.com"),
                steps: [(.signInMethods(nil), .link)]),
            Case(
                name: "an email link to the account's own address: no check", credential: emailLink, anonymous: false,
                email: "ANN@example.com", first: .link,
                steps: [(.linked(uid: "g", email: "ann@example.com"), .adoptUpdated), (.adopted, .syncUsernameEmail)]),
            Case(
                name: "the link is refused as a conflict: the error names the email and method", credential: password,
                first: .link, steps: [(.failed(AuthError(.emailAlreadyInUse)), .fail(inUse))]),
            Case(
                name: "the check fails: nothing is spent", credential: emailLink, first: .checkEmail("ann@example.com"),
                steps: [(.failed(offline), .fail(offline))]),
            Case(
                name: "the backend answers for another uid: adopted as a sign-in, nothing after", credential: password,
                first: .link,
                steps: [(.linked(uid: "other", email: "ann@example.com"), .adoptAsSignIn), (.adopted, .done)]),
            Case(
                name: "crash before the link (or it did not land): the replay links", credential: password,
                first: .link,
                steps: [(.linked(uid: "g", email: "ann@example.com"), .adoptLinked)]),
            Case(
                name: "crash after a password link landed: the replay is told the email is in use (a reload shows it)",
                credential: password, first: .link, steps: [(.failed(AuthError(.emailAlreadyInUse)), .fail(inUse))]),
            Case(
                name: "crash after an email link landed: the replay's check finds the address taken, spends nothing",
                credential: emailLink, first: .checkEmail("ann@example.com"),
                steps: [(.signInMethods(["emailLink"]), .fail(inUse))]),
            Case(
                name: "an event the last action cannot produce stops the job", credential: password, first: .link,
                steps: [(.synced, .fail(AuthError(.backendUnavailable)))]),
        ])
    func steps(_ c: Case) {
        var job = CredentialLink(credential: c.credential, uid: "g", isAnonymous: c.anonymous, email: c.email)
        #expect(job.start() == c.first)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}
