import SesameCore
import Testing

private let claim = UsernameStep(kind: .writeDetails, uid: "u1", key: "ann", username: "Ann")
private let giveBack = UsernameStep(kind: .release, uid: "u1", key: "ann", username: "Ann")
private let account = UsernameStepJob.Account(uid: "u1", isAnonymous: false, email: "ann@example.com")
private let guest = UsernameStepJob.Account(uid: "u1", isAnonymous: true, email: nil)

/// Each row is a persisted step as a restart finds it (a crash can happen after any write),
/// who is signed in then, and the directory's answers: the actions must finish the change or
/// undo it, never leave a name held by nobody's details.
@Suite("UsernameStepJob: finishing a username step after a crash or a failure")
struct UsernameStepJobTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var step: UsernameStep
        var signedIn: UsernameStepJob.Account?
        var first: UsernameStepJob.Action
        var steps: [(UsernameStepJob.Event, UsernameStepJob.Action)]
        var testDescription: String { name }
    }

    @Test(
        "the persisted step replayed gives the right next action",
        arguments: [
            Case(
                name: "crash after the claim landed: write the details, adopt the name", step: claim, signedIn: account,
                first: .readOwner(key: "ann"),
                steps: [
                    (.owner("u1"), .writeDetails(UsernameDetails(username: "Ann", email: "ann@example.com"))),
                    (.detailsWritten, .adopt(username: "Ann")), (.adopted, .finish([claim])),
                ]),
            Case(
                name: "crash before the claim landed: drop the step", step: claim, signedIn: account,
                first: .readOwner(key: "ann"), steps: [(.owner(nil), .finish([claim]))]),
            Case(
                name: "the name went to someone else: drop the step", step: claim, signedIn: account,
                first: .readOwner(key: "ann"), steps: [(.owner("u2"), .finish([claim]))]),
            Case(
                name: "crash during a sign-up that claimed first and never linked: give the name back", step: claim,
                signedIn: guest, first: .readOwner(key: "ann"),
                steps: [
                    (.owner("u1"), .replaceWithRelease(giveBack)),
                    (.replaced, .release(key: "ann", unlessCurrent: false)),
                    (.released, .finish([giveBack])),
                ]),
            Case(
                name: "crash during a rename, after the new name's details: release the old one unless current",
                step: giveBack, signedIn: account, first: .release(key: "ann", unlessCurrent: true),
                steps: [(.released, .finish([giveBack]))]),
            Case(
                name: "the account is no longer signed in: nothing can be written in its name", step: claim,
                signedIn: UsernameStepJob.Account(uid: "u9", isAnonymous: false, email: nil), first: .finish([claim]),
                steps: []),
            Case(name: "signed out: dropped", step: giveBack, signedIn: nil, first: .finish([giveBack]), steps: []),
            Case(
                name: "directory unreachable: keep the step, retry later", step: claim, signedIn: account,
                first: .readOwner(key: "ann"), steps: [(.unreachable, .retryLater)]),
            Case(
                name: "directory refuses the write: drop it", step: claim, signedIn: account,
                first: .readOwner(key: "ann"),
                steps: [
                    (.owner("u1"), .writeDetails(UsernameDetails(username: "Ann", email: "ann@example.com"))),
                    (.refused, .finish([claim])),
                ]),
            Case(
                name: "giving back fails while unreachable: the release step stays for the retry", step: claim,
                signedIn: guest, first: .readOwner(key: "ann"),
                steps: [
                    (.owner("u1"), .replaceWithRelease(giveBack)),
                    (.replaced, .release(key: "ann", unlessCurrent: false)),
                    (.unreachable, .retryLater),
                ]),
        ])
    func replay(_ c: Case) {
        var job = UsernameStepJob(c.step)
        #expect(job.start(signedIn: c.signedIn) == c.first)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}
