import SesameCore
import Testing

private let rules = UsernameRules()
private let ann = rules.validate("Ann").username!
private let bob = rules.validate("Bob").username!
private let claimAnn = UsernameStep(kind: .writeDetails, uid: "u1", key: "ann", username: "Ann")
private let releaseBob = UsernameStep(kind: .release, uid: "u1", key: "bob", username: "Bob")
private let giveAnnBack = UsernameStep(kind: .release, uid: "u1", key: "ann", username: "Ann")
private let annDetails = UsernameDetails(username: "Ann", email: "ann@example.com")
private let offline = AuthError(.networkRequestFailed)
private let refused = AuthError(.operationNotAllowed)

@Suite("UsernameChange: setUsername's steps and their undo")
struct UsernameChangeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var old: String?
        var new: Username = ann
        var first: UsernameChange.Action
        var steps: [(UsernameChange.Event, UsernameChange.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "first name: record, claim, details, forget, adopt", old: nil,
                first: .updateSteps(adding: [claimAnn], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")), (.claimed(won: true), .writeDetails(annDetails)),
                    (.detailsWritten, .updateSteps(adding: [], removing: [claimAnn])),
                    (.stepsUpdated, .adopt(username: "Ann")), (.adopted, .done),
                ]),
            Case(
                name: "rename: the old key is released last", old: "Bob",
                first: .updateSteps(adding: [claimAnn, releaseBob], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")), (.claimed(won: true), .writeDetails(annDetails)),
                    (.detailsWritten, .updateSteps(adding: [], removing: [claimAnn])),
                    (.stepsUpdated, .adopt(username: "Ann")), (.adopted, .release(key: "bob", unlessCurrent: false)),
                    (.released, .updateSteps(adding: [], removing: [releaseBob])), (.stepsUpdated, .done),
                ]),
            Case(
                name: "rename, the old key cannot be released yet: its step stays for the retry", old: "Bob",
                first: .updateSteps(adding: [claimAnn, releaseBob], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")), (.claimed(won: true), .writeDetails(annDetails)),
                    (.detailsWritten, .updateSteps(adding: [], removing: [claimAnn])),
                    (.stepsUpdated, .adopt(username: "Ann")), (.adopted, .release(key: "bob", unlessCurrent: false)),
                    (.failed(offline), .retryLater), (.retryPlanned, .done),
                ]),
            Case(
                name: "rename, the old key's release is refused: its step is dropped", old: "Bob",
                first: .updateSteps(adding: [claimAnn, releaseBob], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")), (.claimed(won: true), .writeDetails(annDetails)),
                    (.detailsWritten, .updateSteps(adding: [], removing: [claimAnn])),
                    (.stepsUpdated, .adopt(username: "Ann")), (.adopted, .release(key: "bob", unlessCurrent: false)),
                    (.failed(refused), .updateSteps(adding: [], removing: [releaseBob])), (.stepsUpdated, .done),
                ]),
            Case(
                name: "the name is taken: the steps are removed, nothing changes", old: "Bob",
                first: .updateSteps(adding: [claimAnn, releaseBob], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")),
                    (.claimed(won: false), .updateSteps(adding: [], removing: [claimAnn, releaseBob])),
                    (.stepsUpdated, .fail(AuthError(.usernameTaken))),
                ]),
            Case(
                name: "the claim is refused: it did not land, the steps are removed", old: nil,
                first: .updateSteps(adding: [claimAnn], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")),
                    (.failed(refused), .updateSteps(adding: [], removing: [claimAnn])),
                    (.stepsUpdated, .fail(refused)),
                ]),
            Case(
                name: "the claim fails in transit: it may have landed, so it is given back", old: "Bob",
                first: .updateSteps(adding: [claimAnn, releaseBob], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")),
                    (.failed(offline), .updateSteps(adding: [giveAnnBack], removing: [claimAnn, releaseBob])),
                    (.stepsUpdated, .release(key: "ann", unlessCurrent: false)),
                    (.released, .updateSteps(adding: [], removing: [giveAnnBack])),
                    (.stepsUpdated, .fail(offline)),
                ]),
            Case(
                name: "the details write fails: the claim is given back, the old name kept", old: "Bob",
                first: .updateSteps(adding: [claimAnn, releaseBob], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")), (.claimed(won: true), .writeDetails(annDetails)),
                    (.failed(refused), .updateSteps(adding: [giveAnnBack], removing: [claimAnn, releaseBob])),
                    (.stepsUpdated, .release(key: "ann", unlessCurrent: false)),
                    (.released, .updateSteps(adding: [], removing: [giveAnnBack])),
                    (.stepsUpdated, .fail(refused)),
                ]),
            Case(
                name: "the details write's answer is lost and it did not land: the claim is given back", old: "Bob",
                first: .updateSteps(adding: [claimAnn, releaseBob], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")), (.claimed(won: true), .writeDetails(annDetails)),
                    (.failed(offline), .readDetails),
                    (
                        .detailsRead(UsernameDetails(username: "Bob", email: nil)),
                        .updateSteps(adding: [giveAnnBack], removing: [claimAnn, releaseBob])
                    ),
                    (.stepsUpdated, .release(key: "ann", unlessCurrent: false)),
                ]),
            Case(
                name: "the details write's answer is lost but it landed: the rename goes on", old: "Bob",
                first: .updateSteps(adding: [claimAnn, releaseBob], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")), (.claimed(won: true), .writeDetails(annDetails)),
                    (.failed(offline), .readDetails),
                    (.detailsRead(annDetails), .updateSteps(adding: [], removing: [claimAnn])),
                    (.stepsUpdated, .adopt(username: "Ann")), (.adopted, .release(key: "bob", unlessCurrent: false)),
                    (.released, .updateSteps(adding: [], removing: [releaseBob])), (.stepsUpdated, .done),
                ]),
            Case(
                name: "the read-back fails too: the key is given back only if the record does not point at it",
                old: "Bob",
                first: .updateSteps(adding: [claimAnn, releaseBob], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")), (.claimed(won: true), .writeDetails(annDetails)),
                    (.failed(offline), .readDetails),
                    (.failed(offline), .updateSteps(adding: [giveAnnBack], removing: [claimAnn, releaseBob])),
                    (.stepsUpdated, .release(key: "ann", unlessCurrent: true)),
                    (.released, .updateSteps(adding: [], removing: [giveAnnBack])), (.stepsUpdated, .fail(offline)),
                ]),
            Case(
                name: "giving the claim back fails too: the release step stays for the retry", old: nil,
                first: .updateSteps(adding: [claimAnn], removing: []),
                steps: [
                    (.stepsUpdated, .claim(key: "ann")), (.claimed(won: true), .writeDetails(annDetails)),
                    (.failed(offline), .readDetails),
                    (.detailsRead(nil), .updateSteps(adding: [giveAnnBack], removing: [claimAnn])),
                    (.stepsUpdated, .release(key: "ann", unlessCurrent: false)), (.failed(offline), .retryLater),
                    (.retryPlanned, .fail(offline)),
                ]),
            Case(
                name: "the same name in another case: only the details and the session", old: "ann",
                first: .writeDetails(annDetails),
                steps: [(.detailsWritten, .adopt(username: "Ann")), (.adopted, .done)]),
            Case(
                name: "the same name in another case, the details write fails: nothing changes", old: "ann",
                first: .writeDetails(annDetails), steps: [(.failed(offline), .fail(offline))]),
            Case(name: "exactly the current name: nothing to do", old: "Ann", first: .done, steps: []),
            Case(
                name: "an event the last action cannot produce stops the job", old: nil,
                first: .updateSteps(adding: [claimAnn], removing: []),
                steps: [(.released, .fail(AuthError(.backendUnavailable)))]),
        ])
    func steps(_ c: Case) {
        var job = UsernameChange(uid: "u1", username: c.new, oldUsername: c.old, email: "ann@example.com")
        #expect(job.start() == c.first)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}
