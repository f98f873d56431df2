import ArgumentParser
import SesameClient

/// Finishes a sign-in that sesamed answered with `1000 second-factor-required`: asks for the
/// code from the person's authenticator app (or reads it from `--code-stdin`), calls
/// `completeSecondFactor`, and asks again after a wrong code, up to ``attempts`` codes in all.
/// Every sign-in command runs its call through ``signIn(_:_:)``.
struct SecondFactorPrompt: Sendable {
    typealias Outcome = (state: SesameState, merge: SesameMerge?)
    typealias CodeSource = @Sendable (_ prompt: String, _ fromStandardInput: Bool) throws -> String

    /// How many codes the person may type at the terminal before the command gives up (one
    /// from standard input: a script that sent a wrong code would send the same again).
    static let attempts = 3
    static let prompt = "Code from your authenticator app: "

    /// `--code-stdin`.
    var fromStandardInput: Bool
    /// Where codes come from (the terminal or standard input; tests pass their own).
    var readCode: CodeSource = { prompt, fromStandardInput in
        try CodeReader.read(prompt: prompt, fromStandardInput: fromStandardInput)
    }
    /// Where the lines for the person go (standard error).
    var say: @Sendable (String) -> Void = { StandardError.print($0) }

    /// Runs a sign-in call; when it needs a second factor, finishes it with a code.
    func signIn(_ client: SesameClient, _ body: () async throws -> Outcome) async throws -> Outcome {
        do {
            return try await body()
        } catch let error as SesameClientError {
            guard error.reason == "second-factor-required", let challenge = error.daemonError?.challenge else {
                throw error
            }
            return try await complete(challenge, client: client)
        }
    }

    /// Asks for codes until one finishes the sign-in, the tries run out or the challenge expires.
    /// - Throws: `ExitCode` 1 (after saying why) for a last wrong code or an expired challenge;
    ///   other errors as the client threw them.
    func complete(_ challenge: SesameSecondFactorChallenge, client: SesameClient) async throws -> Outcome {
        say(Self.introduction(challenge))
        let tries = fromStandardInput ? 1 : Self.attempts
        var attempt = 1
        while true {
            let code = try readCode(Self.prompt, fromStandardInput)
            do {
                return try await client.completeSecondFactor(
                    challengeId: challenge.challengeId, code: code, factorId: Self.factorId(of: challenge))
            } catch let error as SesameClientError where error.reason == "invalid-verification-code" {
                guard attempt < tries else {
                    say(
                        "that code is not right either: nothing changed; sign in again and type the code the app "
                            + "shows at that moment (codes change every 30 s; check the phone's clock)")
                    throw ExitCode(ExitStatus.failure.rawValue)
                }
                attempt += 1
                let left = tries - attempt + 1
                say(
                    "that code is not right: type the code the app shows now (\(left) \(left == 1 ? "try" : "tries") left)"
                )
            } catch let error as SesameClientError where error.reason == "expired-sign-in-flow" {
                say("the code came too late (the sign-in waits 5 minutes at most): nothing changed; sign in again")
                throw ExitCode(ExitStatus.failure.rawValue)
            }
        }
    }

    /// The line before the first prompt: which factor the code comes from.
    static func introduction(_ challenge: SesameSecondFactorChallenge) -> String {
        let names = challenge.factors.compactMap { $0.displayName?.isEmpty == false ? $0.displayName : nil }
        let which = names.isEmpty ? "" : " (\(names.joined(separator: ", ")))"
        return "this account has a second factor\(which): enter the 6-digit code your authenticator app shows"
    }

    /// The factor to name in `completeSecondFactor`: nil lets sesamed choose (one factor, or
    /// the account's TOTP factor).
    static func factorId(of challenge: SesameSecondFactorChallenge) -> String? {
        let totp = challenge.factors.filter { $0.type == "totp" }
        return challenge.factors.count > 1 && totp.count == 1 ? totp[0].factorId : nil
    }
}
