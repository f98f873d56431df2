import ArgumentParser

/// `--password-stdin`, for the commands that take a password.
struct PasswordOptions: ParsableArguments {
    @Flag(name: .long, help: "Read the password from the first line of standard input instead of the terminal.")
    var passwordStdin = false
}
