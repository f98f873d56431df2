import ArgumentParser
import Foundation
import SesameClient

struct MfaEnrollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Enrol an authenticator app: shows a QR code and a key, then asks for a code from the app.",
        discussion: """
            Scan the QR code (or type the key) into any TOTP app, then type the 6-digit code it shows; \
            the factor is active once the code is accepted. With --json, the enrolment (with its secret) \
            is printed as one line before the code is asked, and the final state after. The backend may \
            want a recent sign-in first: then run `sesamectl reauth` and enrol again.
            """)

    @Option(
        name: .long,
        help: ArgumentHelp("A name for the factor, shown by `mfa list` and at sign-in (e.g. Phone).", valueName: "name")
    )
    var name: String?

    @Flag(name: .customLong("no-qr"), help: "Do not draw the QR code; print only the key.")
    var noQR = false

    @OptionGroup var code: CodeOptions
    @OptionGroup var options: CommonOptions

    func run() async throws {
        let (state, before) = try await options.withClient { client in
            let before = try await client.state().user?.factors ?? []
            let enrollment = try await client.enrollTotp(displayName: name)
            if options.json {
                print(enrollment.json.jsonString)
            } else {
                let colours = isatty(STDOUT_FILENO) == 1
                print(SecondFactorText.enrollmentLines(enrollment, qr: !noQR, colours: colours).joined(separator: "\n"))
            }
            fflush(nil)
            return (try await confirm(enrollment, client: client), before)
        }
        options.output(json: state.json, text: SecondFactorText.enrolled(state, before: before))
    }

    /// Asks for the app's code until the enrolment is confirmed (three tries at a terminal).
    private func confirm(_ enrollment: SesameTotpEnrollment, client: SesameClient) async throws -> SesameState {
        let tries = code.codeStdin ? 1 : SecondFactorPrompt.attempts
        var attempt = 1
        while true {
            let typed = try CodeReader.read(prompt: SecondFactorPrompt.prompt, fromStandardInput: code.codeStdin)
            do {
                return try await client.confirmTotp(enrollmentId: enrollment.enrollmentId, code: typed)
            } catch let error as SesameClientError where error.reason == "invalid-verification-code" && attempt < tries
            {
                attempt += 1
                StandardError.print("that code is not right: type the code the app shows now (check the phone's clock)")
            }
        }
    }
}
