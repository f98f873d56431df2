import ArgumentParser

/// Reads one-time codes (an authenticator app's, or a mailed one): from the terminal, or one
/// line from standard input (`--code-stdin`). Never from an argument.
enum CodeReader {
    /// Empty lines (Enter alone) at the terminal that are asked again before giving up (a
    /// closed terminal reads as endless empty lines).
    static let emptyLinesAskedAgain = 5

    /// Reads a code; spaces and dashes people type between groups of digits are dropped. At
    /// the terminal, Enter alone asks again.
    /// - Parameters:
    ///   - prompt: shown on the terminal.
    ///   - fromStandardInput: read the next line of standard input instead (`--code-stdin`;
    ///     after `--password-stdin`'s line when both are given).
    ///   - terminalLine: reads one line at the terminal after showing the prompt (tests pass their own).
    /// - Throws: `ValidationError` (exit status 2) without a terminal or a code.
    static func read(
        prompt: String, fromStandardInput: Bool,
        terminalLine: (String) throws -> String = { prompt in
            try PasswordReader.readFromTerminal(
                prompt: prompt, echo: true,
                missing: "no terminal to read the code from: pass --code-stdin and pipe it in")
        }
    ) throws -> String {
        if fromStandardInput {
            guard let read = Swift.readLine(strippingNewline: true) else {
                throw ValidationError("--code-stdin: standard input has no line for the code; pipe the code in")
            }
            let code = normalized(read)
            guard !code.isEmpty else {
                throw ValidationError("--code-stdin: the line for the code is empty; pipe the code in")
            }
            return code
        }
        for _ in 0...emptyLinesAskedAgain {
            let code = normalized(try terminalLine(prompt))
            if !code.isEmpty { return code }
        }
        throw ValidationError("no code was typed: sign in again and type the code, or pipe it in with --code-stdin")
    }

    /// `line` without white space and the dashes of `123-456`.
    static func normalized(_ line: String) -> String {
        String(line.filter { !$0.isWhitespace && $0 != "-" })
    }
}

/// `--code-stdin`, for the commands that may need a one-time code.
struct CodeOptions: ParsableArguments {
    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Read a one-time code (a second factor's, or a mailed one) from standard input instead of the terminal; "
                + "with --password-stdin, from the line after the password."))
    var codeStdin = false
}
