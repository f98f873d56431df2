import Foundation
import SesameCore
import Testing

/// The daemon's bound on second-factor guesses: five wrong codes in a row end the challenge,
/// each lockout twice the last, a right code clears it all.
@Suite("SecondFactorGuesses: the wrong-code bound and its lockouts")
struct SecondFactorGuessesTests {
    enum Step: Sendable {
        case wrong(at: TimeInterval, SecondFactorGuesses.Verdict)
        case right
        /// The lockout left at a time (nil: a challenge may open).
        case lockoutLeft(at: TimeInterval, TimeInterval?)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [Step]
        var testDescription: String { name }
    }

    static func wrongs(_ count: Int, at time: TimeInterval, lockout: TimeInterval) -> [Step] {
        (1..<count).map { .wrong(at: time, .tryAgain(left: count - $0)) } + [
            .wrong(at: time, .exhausted(lockout: lockout))
        ]
    }

    @Test(
        "each step gives the expected verdict",
        arguments: [
            Case(
                name: "four wrong codes leave one try; no lockout",
                steps: [
                    .wrong(at: 0, .tryAgain(left: 4)), .wrong(at: 1, .tryAgain(left: 3)),
                    .wrong(at: 2, .tryAgain(left: 2)),
                    .wrong(at: 3, .tryAgain(left: 1)), .lockoutLeft(at: 3, nil),
                ]),
            Case(
                name: "the fifth wrong code ends the challenge: a 30 s lockout",
                steps: wrongs(5, at: 0, lockout: 30) + [
                    .lockoutLeft(at: 10, 20), .lockoutLeft(at: 30, nil), .lockoutLeft(at: 31, nil),
                ]),
            Case(
                name: "after a lockout, five tries again; the next lockout doubles, up to 15 minutes",
                steps: wrongs(5, at: 0, lockout: 30) + wrongs(5, at: 40, lockout: 60)
                    + wrongs(5, at: 200, lockout: 120) + wrongs(5, at: 400, lockout: 240)
                    + wrongs(5, at: 700, lockout: 480) + wrongs(5, at: 1200, lockout: 900)
                    + wrongs(5, at: 2200, lockout: 900) + [.lockoutLeft(at: 2200, 900)]),
            Case(
                name: "a right code clears the count and the lockouts",
                steps: [.wrong(at: 0, .tryAgain(left: 4)), .wrong(at: 0, .tryAgain(left: 3)), .right]
                    + wrongs(5, at: 1, lockout: 30) + [.right, .lockoutLeft(at: 2, nil)] + wrongs(5, at: 3, lockout: 30)
            ),
            Case(
                name: "wrong codes count across challenges: a new sign-in gives no fresh tries",
                steps: [
                    .wrong(at: 0, .tryAgain(left: 4)), .wrong(at: 0, .tryAgain(left: 3)),
                    .wrong(at: 0, .tryAgain(left: 2)),
                ]
                    + [.wrong(at: 5, .tryAgain(left: 1)), .wrong(at: 5, .exhausted(lockout: 30))]),
        ])
    func table(_ row: Case) {
        var guesses = SecondFactorGuesses()
        for (index, step) in row.steps.enumerated() {
            switch step {
            case .wrong(let time, let expected):
                #expect(guesses.wrongCode(at: Date(timeIntervalSince1970: time)) == expected, "step \(index)")
            case .right:
                guesses.rightCode()
            case .lockoutLeft(let time, let expected):
                #expect(guesses.lockoutLeft(at: Date(timeIntervalSince1970: time)) == expected, "step \(index)")
            }
        }
    }
}
