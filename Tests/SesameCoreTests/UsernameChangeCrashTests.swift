import SesameCore
import Testing

private let ann = UsernameRules().validate("Ann").username!
private let claimAnn = UsernameStep(kind: .writeDetails, uid: "u1", key: "ann", username: "Ann")
private let releaseBob = UsernameStep(kind: .release, uid: "u1", key: "bob", username: "Bob")
private let giveAnnBack = UsernameStep(kind: .release, uid: "u1", key: "ann", username: "Ann")
private let annDetails = UsernameDetails(username: "Ann", email: "ann@example.com")
private let account = UsernameStepJob.Account(uid: "u1", isAnonymous: false, email: "ann@example.com")

/// A rename from Bob to Ann, crashed at each step. `events` is what the job heard before the
/// crash; the keyring then holds `keyring` (the `.updateSteps` actions performed so far), and
/// the restart runs ``UsernameStepJob`` over each listed step, in order, with the directory's
/// answer (`owner` of the new key: did the claim land?).
@Suite("UsernameChange: a crash at each step is finished or undone after the restart")
struct UsernameChangeCrashTests {
    struct Replay: Sendable {
        var step: UsernameStep
        var actions: [UsernameStepJob.Action]
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var events: [UsernameChange.Event]
        var keyring: [UsernameStep]
        var owner: String?
        var replays: [Replay]
        var testDescription: String { name }
    }

    static let finishClaim: [UsernameStepJob.Action] = [
        .readOwner(key: "ann"), .writeDetails(annDetails), .adopt(username: "Ann"), .finish([claimAnn]),
    ]
    /// With `unlessCurrent`, the service keeps the key the details record points at: Bob before
    /// the new details are written, released once they point at Ann.
    static let releaseOld: [UsernameStepJob.Action] = [
        .release(key: "bob", unlessCurrent: true), .finish([releaseBob]),
    ]

    @Test(
        "the keyring at each crash point, and what the restart does with it",
        arguments: [
            Case(
                name: "before the steps are written: nothing listed, the old name stands", events: [], keyring: [],
                replays: []),
            Case(
                name: "the claim was sent and did not land: its step is dropped, Bob is kept (details point at it)",
                events: [.stepsUpdated], keyring: [claimAnn, releaseBob], owner: nil,
                replays: [
                    Replay(step: claimAnn, actions: [.readOwner(key: "ann"), .finish([claimAnn])]),
                    Replay(step: releaseBob, actions: releaseOld),
                ]),
            Case(
                name: "the claim landed: the rename is finished, then Bob released",
                events: [.stepsUpdated], keyring: [claimAnn, releaseBob], owner: "u1",
                replays: [Replay(step: claimAnn, actions: finishClaim), Replay(step: releaseBob, actions: releaseOld)]),
            Case(
                name: "during the details write: the rename is finished",
                events: [.stepsUpdated, .claimed(won: true)], keyring: [claimAnn, releaseBob], owner: "u1",
                replays: [Replay(step: claimAnn, actions: finishClaim), Replay(step: releaseBob, actions: releaseOld)]),
            Case(
                name: "during the read-back of a details write whose answer was lost: the rename is finished",
                events: [.stepsUpdated, .claimed(won: true), .failed(AuthError(.networkRequestFailed))],
                keyring: [claimAnn, releaseBob], owner: "u1",
                replays: [Replay(step: claimAnn, actions: finishClaim), Replay(step: releaseBob, actions: releaseOld)]),
            Case(
                name: "the details written, the claim step forgotten, before the session took the name: Bob released",
                events: [.stepsUpdated, .claimed(won: true), .detailsWritten, .stepsUpdated], keyring: [releaseBob],
                owner: "u1", replays: [Replay(step: releaseBob, actions: releaseOld)]),
            Case(
                name: "during the old key's release: it is done again",
                events: [.stepsUpdated, .claimed(won: true), .detailsWritten, .stepsUpdated, .adopted],
                keyring: [releaseBob], owner: "u1", replays: [Replay(step: releaseBob, actions: releaseOld)]),
            Case(
                name: "after the last write: nothing listed",
                events: [
                    .stepsUpdated, .claimed(won: true), .detailsWritten, .stepsUpdated, .adopted, .released,
                    .stepsUpdated,
                ],
                keyring: [], owner: "u1", replays: []),
            Case(
                name: "during the undo of a failed details write: the new key is given back",
                events: [
                    .stepsUpdated, .claimed(won: true), .failed(AuthError(.networkRequestFailed)), .detailsRead(nil),
                    .stepsUpdated,
                ],
                keyring: [giveAnnBack], owner: "u1",
                replays: [
                    Replay(
                        step: giveAnnBack,
                        actions: [
                            .release(key: "ann", unlessCurrent: true),
                            .finish([giveAnnBack]),
                        ])
                ]),
        ])
    func crash(_ c: Case) {
        var job = UsernameChange(uid: "u1", username: ann, oldUsername: "Bob", email: "ann@example.com")
        var keyring: [UsernameStep] = []
        var action = job.start()
        for event in c.events {
            // A step-list write is in the keyring once the job hears it was done.
            if case .updateSteps(let adding, let removing) = action, event == .stepsUpdated {
                keyring = keyring.filter { !removing.contains($0) } + adding.filter { !keyring.contains($0) }
            }
            action = job.handle(event)
        }
        #expect(keyring == c.keyring)
        #expect(c.replays.map(\.step) == keyring)
        for replay in c.replays {
            #expect(Self.replay(replay.step, owner: c.owner) == replay.actions)
        }
    }

    /// Runs the restart's job for one step against a directory where `owner` holds the new key
    /// and every call succeeds.
    static func replay(_ step: UsernameStep, owner: String?) -> [UsernameStepJob.Action] {
        var job = UsernameStepJob(step)
        var actions = [job.start(signedIn: account)]
        while let last = actions.last, actions.count < 10 {
            let event: UsernameStepJob.Event
            switch last {
            case .readOwner: event = .owner(owner)
            case .writeDetails: event = .detailsWritten
            case .replaceWithRelease: event = .replaced
            case .release: event = .released
            case .adopt: event = .adopted
            case .finish, .retryLater: return actions
            }
            actions.append(job.handle(event))
        }
        return actions
    }
}
