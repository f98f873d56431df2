import SesameCore
import Testing

private let taken = AuthError(.usernameTaken)
private let inUse = AuthError(.emailAlreadyInUse)

@Suite("AccountCreation: createAccount's steps and their undo")
struct AccountCreationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var origin: AccountCreation.Origin
        var username: Bool
        var first: AccountCreation.Action
        var steps: [(AccountCreation.Event, AccountCreation.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "guest, no username: link, adopt", origin: .guest, username: false, first: .linkToGuest,
                steps: [(.created, .adopt), (.adopted, .done)]),
            Case(
                name: "guest with a username: claim first, link, adopt, write the details", origin: .guest,
                username: true,
                first: .claimForGuest,
                steps: [
                    (.claimed, .linkToGuest), (.created, .adopt), (.adopted, .writeDetails), (.detailsHandled, .done),
                ]),
            Case(
                name: "guest, the name is taken: nothing was linked", origin: .guest, username: true,
                first: .claimForGuest,
                steps: [(.claimFailed(taken), .fail(taken))]),
            Case(
                name: "guest, the link fails: the claim is given back, then the link's error", origin: .guest,
                username: true,
                first: .claimForGuest,
                steps: [
                    (.claimed, .linkToGuest), (.creationFailed(inUse), .releaseGuestClaim), (.undone, .fail(inUse)),
                ]),
            Case(
                name: "guest, no username, the link fails", origin: .guest, username: false, first: .linkToGuest,
                steps: [(.creationFailed(inUse), .fail(inUse))]),
            Case(
                name: "signed out, no username: sign up, adopt", origin: .nobody, username: false, first: .signUp,
                steps: [(.created, .adopt), (.adopted, .done)]),
            Case(
                name: "signed out with a username: sign up, claim, adopt, write the details", origin: .nobody,
                username: true,
                first: .signUp,
                steps: [
                    (.created, .claimForNewAccount), (.claimed, .adopt), (.adopted, .writeDetails),
                    (.detailsHandled, .done),
                ]),
            Case(
                name: "signed out, the name lost a race: the new account is deleted again", origin: .nobody,
                username: true,
                first: .signUp,
                steps: [
                    (.created, .claimForNewAccount), (.claimFailed(taken), .deleteNewAccount), (.undone, .fail(taken)),
                ]),
            Case(
                name: "signed out, the sign-up fails: nothing to undo", origin: .nobody, username: true, first: .signUp,
                steps: [(.creationFailed(inUse), .fail(inUse))]),
        ])
    func steps(_ c: Case) {
        var job = AccountCreation(origin: c.origin, claimsUsername: c.username)
        #expect(job.start() == c.first)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }

    static let step = UsernameStep(kind: .writeDetails, uid: "g", key: "ann", username: "Ann")

    /// The guest's claim is the durable part: its step is in the keyring from before the claim
    /// until the details are written. A crash at each point leaves the keyring as below; the
    /// restart finishes the step with ``UsernameStepJob``.
    @Test("a crash at each step of a guest's account creation is finished or undone after the restart")
    func crashPoints() {
        let guest = UsernameStepJob.Account(uid: "g", isAnonymous: true, email: nil)
        let account = UsernameStepJob.Account(uid: "g", isAnonymous: false, email: "ann@example.com")

        // Before the claim reached the directory: the step is dropped.
        var beforeClaim = UsernameStepJob(Self.step)
        #expect(beforeClaim.start(signedIn: guest) == .readOwner(key: "ann"))
        #expect(beforeClaim.handle(.owner(nil)) == .finish([Self.step]))

        // After the claim, before the link: still a guest, so the name is given back.
        var afterClaim = UsernameStepJob(Self.step)
        _ = afterClaim.start(signedIn: guest)
        let release = UsernameStep(kind: .release, uid: "g", key: "ann", username: "Ann")
        #expect(afterClaim.handle(.owner("g")) == .replaceWithRelease(release))
        #expect(afterClaim.handle(.replaced) == .release(key: "ann", unlessCurrent: false))

        // After the link was adopted, before the details: the details are written.
        var afterLink = UsernameStepJob(Self.step)
        _ = afterLink.start(signedIn: account)
        #expect(
            afterLink.handle(.owner("g")) == .writeDetails(UsernameDetails(username: "Ann", email: "ann@example.com")))
        #expect(afterLink.handle(.detailsWritten) == .adopt(username: "Ann"))
    }
}
